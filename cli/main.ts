// Placeholder entry; the CLI lands with issue 2.
process.stdout.write("spotdesk 0.1.0\n");
