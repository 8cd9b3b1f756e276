"""``charrestore batch``: corpus-scale restoration of txt/jsonl/parquet files, resumable and order-keeping.

io.py reads inputs as shards and writes outputs, records.py restores one batch of records (the function
both runners call), shards.py holds the plan, the manifest and the collector that writes finished shards,
local.py and ray_runner.py run the batches, command.py is the CLI face.
"""
