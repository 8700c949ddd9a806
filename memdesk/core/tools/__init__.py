"""What assistants call: tool schemas, argument handling, the tools, the brief, the log."""
