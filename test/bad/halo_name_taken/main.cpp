// application
