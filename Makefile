# Shortcuts; the scripts install missing system packages themselves.
.PHONY: demo test bench schemathesis
demo:
	bash scripts/demo.sh
test:
	bash scripts/test.sh
schemathesis:
	bash scripts/schemathesis.sh
