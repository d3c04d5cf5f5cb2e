"""Importers of other programs' board data into hexkernel's board specifications."""
