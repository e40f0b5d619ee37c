# Shortcuts; the scripts install missing system packages themselves.
#   make demo | make test | make schemathesis
#   make release                       # static-stdlib release binary: .build/release/oncue
#   make bench                         # the release binary and the benchmarks (Benchmarks/.build/release/oncue-bench)
#   make install PREFIX=/usr/local     # the binary, shell completions and the man page (DESTDIR for packaging)
#   make manual                        # regenerate docs/oncue.1 after changing a command's help
.PHONY: demo test bench schemathesis release install manual uninstall
PREFIX ?= /usr/local
BINDIR = $(DESTDIR)$(PREFIX)/bin
SHAREDIR = $(DESTDIR)$(PREFIX)/share
ONCUE = .build/release/oncue
MANUAL = docs/oncue.1

demo:
	bash scripts/demo.sh
test:
	bash scripts/test.sh
schemathesis:
	bash scripts/schemathesis.sh

# The Swift runtime is linked in; the binary needs SQLite and the SpatiaLite extension from the system.
release:
	bash scripts/system-deps.sh
	swift build -c release --static-swift-stdlib --product oncue

# The benchmarks are a package of their own (Benchmarks/); BENCHMARKS.md gives the command of each figure.
bench: release
	# A cached build plan can miss a file added to the product since the last build: plan again.
	swift build -c release --package-path Benchmarks --disable-build-manifest-caching

# swift-argument-parser's generate-manual plugin writes oncue.1 from the commands' own help. It builds the package
# again with its own flags, so its output is kept in docs/ rather than made by every install.
manual:
	swift package plugin generate-manual
	cp .build/plugins/GenerateManual/outputs/oncue/oncue.1 $(MANUAL)

install: release
	install -d $(BINDIR) $(SHAREDIR)/man/man1 $(SHAREDIR)/bash-completion/completions $(SHAREDIR)/zsh/site-functions \
		$(SHAREDIR)/fish/vendor_completions.d
	install -m 0755 $(ONCUE) $(BINDIR)/oncue
	install -m 0644 $(MANUAL) $(SHAREDIR)/man/man1/oncue.1
	$(ONCUE) --generate-completion-script bash > $(SHAREDIR)/bash-completion/completions/oncue
	$(ONCUE) --generate-completion-script zsh > $(SHAREDIR)/zsh/site-functions/_oncue
	$(ONCUE) --generate-completion-script fish > $(SHAREDIR)/fish/vendor_completions.d/oncue.fish

uninstall:
	rm -f $(BINDIR)/oncue $(SHAREDIR)/man/man1/oncue.1 $(SHAREDIR)/bash-completion/completions/oncue \
		$(SHAREDIR)/zsh/site-functions/_oncue $(SHAREDIR)/fish/vendor_completions.d/oncue.fish
