// placeholder: golden inputs are never compiled
