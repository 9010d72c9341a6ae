// placeholder main: golden inputs are never compiled
