"""The command line: the one place that wires vision, assistant, web and hardware together."""
