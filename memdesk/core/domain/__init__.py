"""What a memory is, independent of where it is stored: records, field rules, errors, times,
heat, the Changes value and the Embedder interface. Imports nothing else of the core.
"""
