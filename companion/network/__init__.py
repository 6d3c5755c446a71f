"""Where the phones reach the table: its address and .local name on the network, and the Wi-Fi
network it makes of its own (the hotspot)."""
