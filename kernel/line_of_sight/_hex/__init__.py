"""The hex model (private): the LOS rule steps (`rules`), the pair evaluator and its matrix, pairs and
rows kernels (`pairs`), the per-pair queries (`queries`), cover and range (`cover`), the counters' cells
(`counter_cells`) and the held matrix's refresh (`refresh`)."""
