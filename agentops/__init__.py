"""agentops: small, pure, stdlib-only modules that keep LLM agents honest.

Each module in this package stands alone: copy one file into your project and it
works. This file stays tiny on purpose and imports no module, so importing one
module never pays for the others.
"""

__version__ = "0.1.0"

# Every pure module, in the order the README presents them. A name is listed here
# only once its file exists; the package test checks the two agree.
MODULES: tuple[str, ...] = ()
