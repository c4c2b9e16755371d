"""Rules of Castellum: Maastricht, one module per phase or concept."""
