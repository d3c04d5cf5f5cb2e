"""The VASL importer: archive and LOSData reading, terrain mapping and board building."""
