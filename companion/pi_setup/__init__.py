"""Setting a Raspberry Pi up as the table: where ``companion install-service`` puts the service
and the files it writes (:mod:`.layout`), the steps it is made of (:mod:`.steps`), and what the
table needs in the Pi's boot configuration (:mod:`.boot_config`).
"""
