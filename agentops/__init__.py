"""agentops: small, pure, stdlib-only modules that keep LLM agents honest.

Each module in this package stands alone: copy one file into your project and it
works. This file stays tiny on purpose and imports no module, so importing one
module never pays for the others.
"""

__version__ = "0.1.0"

# Every pure module, in the order the README presents them; the package test
# checks that this tuple and the files in this folder agree.
MODULES: tuple[str, ...] = (
    "secret_redaction",
    "memory_integrity",
    "memory_usage_ledger",
    "rrf_fuse",
    "stale_basis",
    "capability_grant",
    "scannable_command",
    "shadow_screen",
    "hidden_chars",
    "promotion_gate",
    "loop_guard",
    "claim_audit",
)
