"""Pre-freeze audit (labels, leakage, overlap, controls, shifts, quotas) and hash verification."""

from reasonbench.audit.run import audit, summary_markdown, write_audit
from reasonbench.audit.verify import verify

__all__ = ["audit", "summary_markdown", "verify", "write_audit"]
