// application (never compiled: composing fails)
