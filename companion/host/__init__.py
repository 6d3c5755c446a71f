"""What the table needs of the machine it runs on: its state directory kept private, the locks
that keep two tables off one directory, the journal's priorities, the worker processes and their
real-time priority, the version running, and what installs companion into its venv."""
