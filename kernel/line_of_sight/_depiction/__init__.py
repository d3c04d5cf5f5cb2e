"""The depiction model's kernels (private): the pixel walk over a map's art (`walk`), its steps and log
(`steps`), the judged pixel runs (`runs`) and which hex a walked pixel belongs to (`pixel_geometry`)."""
