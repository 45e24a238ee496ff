"""The `sanmoku` command (`main`): serve, analyse and solve from the shell, and manage the tables
(`table_commands`) and the cache of proven positions and books (`proven_commands`). It answers from the
engine's front door with the same rule as the service, and prints the API's own bytes."""
