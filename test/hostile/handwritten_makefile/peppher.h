// my header
