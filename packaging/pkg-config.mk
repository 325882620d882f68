# SwiftPM reads the system libraries' .pc files itself (Package.swift's `pkgConfig:`) and
# warns about every flag it does not pass on (GLib's -pthread, GModule's
# -Wl,--export-dynamic). Every `swift build`/`swift test`/`swift package` here finds first,
# through SWIFT_PKG_CONFIG, .pc files with the flags pkg-config resolves minus those
# (Sources/VitrineTooling/Project/FlatPkgConfig.swift), written into PKG_CONFIG_DIR before each
# build by `pkg-config-dir`. Its tool is built with swiftc from the core's own sources (no
# `vitrine` exists yet at this point); apps run the same code as `vitrine pkg-config-path`.
# Included by the top-level Makefile and by debian/rules, from the source root ($(CURDIR)).
PKG_CONFIG_DIR := .build/pkg-config
SWIFT_PKG_CONFIG = --pkg-config-path "$(CURDIR)/$(PKG_CONFIG_DIR)"
FLAT_PKG_CONFIG := .build/tools/flat-pkg-config
FLAT_PKG_CONFIG_SOURCES := Tools/flat-pkg-config/main.swift \
	$(addprefix Sources/VitrineTooling/Project/,FlatPkgConfig.swift FlatPkgConfigFolder.swift) \
	$(addprefix Sources/Vitrine/Support/,FileSystem.swift FileSystemError.swift FileIdentity.swift String+Whitespace.swift)

.PHONY: pkg-config-dir
pkg-config-dir: $(FLAT_PKG_CONFIG)
	@$(FLAT_PKG_CONFIG) $(PKG_CONFIG_DIR)

$(FLAT_PKG_CONFIG): $(FLAT_PKG_CONFIG_SOURCES)
	@mkdir -p $(dir $@)
	$(SWIFT)c -module-name FlatPkgConfig -o $@ $^
