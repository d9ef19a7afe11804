"""The one I/O layer: atomic writes, output ownership, split reading, manifests and hashes, and
the parallel map. Every command writes and reads through it."""

from reasonbench.io.atomic import (
    atomic_path,
    dumps_json,
    parquet_bytes,
    write_bytes,
    write_json,
    write_parquet,
    write_text,
)
from reasonbench.io.collector import paused_collector
from reasonbench.io.manifest import (
    MANIFEST,
    DataIdentity,
    data_identity,
    file_hashes,
    manifest_hash,
    read_manifest,
    sha256_file,
    sha256_text,
)
from reasonbench.io.outputs import (
    LEDGER,
    OutputDir,
    OutputError,
    check_no_file_in_the_way,
    claim_directory,
    ensure_directory,
    replace_directory,
)
from reasonbench.io.splits import (
    CARDINALITY_DIR,
    SplitError,
    read_split,
    read_splits,
    split_columns,
    split_names,
    split_path,
)

__all__ = [
    "CARDINALITY_DIR",
    "LEDGER",
    "MANIFEST",
    "DataIdentity",
    "OutputDir",
    "OutputError",
    "SplitError",
    "atomic_path",
    "check_no_file_in_the_way",
    "claim_directory",
    "data_identity",
    "dumps_json",
    "ensure_directory",
    "file_hashes",
    "manifest_hash",
    "parquet_bytes",
    "paused_collector",
    "read_manifest",
    "read_split",
    "read_splits",
    "replace_directory",
    "sha256_file",
    "sha256_text",
    "split_columns",
    "split_names",
    "split_path",
    "write_bytes",
    "write_json",
    "write_parquet",
    "write_text",
]
