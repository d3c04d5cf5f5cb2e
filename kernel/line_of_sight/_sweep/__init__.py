"""The per-source sweep (private): one source's LOS to many targets walked once over the templates' prefix
tree (`rows`), with the codes of a source above its targets (`down_codes`), its targets' table
(`target_table`), LOS matrices through those rows (`matrix`) and the calls from Python (`run`)."""
