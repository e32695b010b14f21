def render_kit_pdf(*, lang="es", paper="a4"):
    raise NotImplementedError
