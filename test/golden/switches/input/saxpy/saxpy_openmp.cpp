// placeholder variant: golden inputs are never compiled
