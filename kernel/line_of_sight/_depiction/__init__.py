"""The depiction model's kernels (private): the tables they read (`tables`), the pixel walk over a map's art
(`walk`), its set-up per pair (`walk_setup`), its steps (`pixel_steps`, `steps`) and log (`steps`), the judged
pixel runs (`runs`) and which hex a walked pixel belongs to (`pixel_geometry`)."""
