"""Developer tools, never run on the box: the gallery and golden images, the wiring
diagram, the message catalogues, and the sample views they draw."""
