# Vitrine — the two everyday commands are `make run` and `make test`.
# Both install what they need on a fresh Debian 12 machine with the Swift toolchain.

SHELL := /bin/bash
SWIFT ?= swift
XVFB := xvfb-run -a -s "-screen 0 1280x1024x24"
# System packages: WebKitGTK and GTK headers, a virtual X server for headless runs,
# D-Bus for the benchmark's session bus, GLib's MIME database, a font for screenshots,
# Node for the JavaScript SDK's tests, PyGObject for the tests' stand-in D-Bus services.
# Openbox and wmctrl: a real window manager's close request in the window tests.
APT_PACKAGES := libwebkit2gtk-4.1-dev libgtk-3-dev pkg-config xvfb xauth dbus dbus-x11 \
	shared-mime-info fonts-dejavu-core python3 python3-gi openssl nodejs tinyproxy openbox wmctrl libx11-dev libxext-dev \
	libmosquitto-dev mosquitto mosquitto-clients
# libgcrypt: Ed25519 signatures and SHA-256 of signed updates (WebKit links it already).
APT_PACKAGES += libgcrypt20-dev
# libarchive: playlist bundles (zip or tar of a site) are unpacked with it.
APT_PACKAGES += libarchive-dev
# rpm (rpmbuild) and rpmlint: `vitrine bundle --rpm` in the new-project test.
APT_PACKAGES += rpm rpmlint
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
SCREENSHOT ?= out/demo.png
ARGS ?=
# RELEASE_BUILD_FLAGS: the release build as shipped in the .deb (shared with debian/rules).
include packaging/release-build.mk
# AT-SPI (python3-pyatspi, at-spi2-core): the on-screen keyboard's test clicks its keys as
# assistive technology does.
APT_PACKAGES += python3-pyatspi at-spi2-core
# TypeScript's compiler (tsc): the SDK's types are checked against a page script that uses
# them and one that misuses them (Tests/sdk/types.test.js).
APT_PACKAGES += node-typescript
# node_exporter: the metrics test runs its own on a loopback port (the service the package
# may start on :9100 is not used).
APT_PACKAGES += prometheus-node-exporter
# sway (headless wlroots): the [[displays]] test's monitors, one at start and one made while
# the program runs; GDK 3 never sees two monitors under Xvfb alone; the Wayland session of
# the global-shortcuts portal test.
APT_PACKAGES += sway
# bubblewrap and xdg-dbus-proxy: WebKit's web-process sandbox ([security] sandbox, on by
# default), which the program checks before its first view.
APT_PACKAGES += bubblewrap xdg-dbus-proxy
# x11-utils (xwininfo, xprop): the app id test reads each window's WM_CLASS.
APT_PACKAGES += x11-utils
# xdg-utils (xdg-open) and desktop-file-utils (update-desktop-database): the deep-link test
# opens myapp:// through a desktop entry, as a desktop does; xdotool presses global shortcuts.
APT_PACKAGES += xdg-utils desktop-file-utils xdotool
# gdbus (libglib2.0-bin): the tray tests read the StatusNotifierItem as a tray host would,
# the portal shortcuts test drives its stand-in portal and forges a signal;
# librsvg2-common: GdkPixbuf's SVG loader, for SVG tray icons.
APT_PACKAGES += libglib2.0-bin librsvg2-common
# waybar and grim: the tray host test shows the icon in a real tray (waybar's, which is the
# session's StatusNotifierWatcher) on headless sway, reads the bar back with grim and clicks it.
APT_PACKAGES += waybar grim
# CUPS with a cups-pdf queue and poppler's pdftotext: the silent-printing test prints a
# page through a real scheduler (its own cupsd on a loopback port) and reads the PDF's text.
APT_PACKAGES += cups cups-bsd cups-client printer-driver-cups-pdf poppler-utils
# WebKitWebDriver: the WebDriver test drives `vitrine --automation` through it, as a
# Selenium or WebdriverIO client would.
APT_PACKAGES += webkit2gtk-driver
# dpkg-dev (dpkg-shlibdeps), binutils (strip, strings) and lintian: `vitrine bundle` builds and
# checks an app's .deb (chrpath drops SwiftPM's RUNPATH); `make size-check` measures the
# stripped program and looks for ICU.
APT_PACKAGES += dpkg-dev binutils lintian chrpath
# x11vnc: the remote-view test ([remote.vnc]) reads the kiosk's screen through a real
# x11vnc on the Xvfb display with a small RFB client of its own (Support/rfb_pixel.py).
APT_PACKAGES += x11vnc
# iproute2 (ip netns, ss): the remote-view network test runs the kiosk in a network namespace
# of its own and probes it from a second one on a veth link, as a host on the LAN would.
APT_PACKAGES += iproute2
# GStreamer: its headers and library (the program lists the decoders at start, see
# ProcessRendering), gst-launch-1.0/gst-inspect-1.0 (the media tests make their clips with
# its test sources and read what it decodes), and a PulseAudio server and its clients (the
# autoplay test records a private null sink). libegl-dev/libgles-dev: the GL renderer probe.
APT_PACKAGES += libgstreamer1.0-dev gstreamer1.0-tools gstreamer1.0-plugins-good pulseaudio pulseaudio-utils libegl-dev libgles-dev

.PHONY: deps build run test test-js test-core test-window bench clean

# install_missing: apt-get installs those of the packages named in $(1) that are not
# installed yet (apt-get update first, only when something is missing).
define install_missing
missing=""; for p in $(1); do \
	dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
done; \
if [ -n "$$missing" ]; then \
	echo "installing:$$missing"; \
	$(SUDO) apt-get update -qq && \
	DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
fi
endef

## deps: install the system packages (only those missing; apt-get update first)
deps:
	@$(call install_missing,$(APT_PACKAGES))

# SWIFT_PKG_CONFIG: every swift build/test/package reads the system libraries' flags from
# the flattened .pc files `pkg-config-dir` writes (shared with debian/rules).
include packaging/pkg-config.mk

build: deps pkg-config-dir
	$(SWIFT) build $(SWIFT_PKG_CONFIG)

## install: puts this checkout's `vitrine` on the PATH (PREFIX=~/.local by default): a link
## PREFIX/bin/vitrine to the build here, so it finds this checkout's Resources, `vitrine new`
## projects depend on this checkout, and every later `swift build` is what runs
PREFIX ?= $(HOME)/.local
.PHONY: install
install: build
	install -d "$(PREFIX)/bin"
	ln -sfn "$(CURDIR)/.build/debug/vitrine" "$(PREFIX)/bin/vitrine"
	@case ":$$PATH:" in *":$(PREFIX)/bin:"*) ;; *) echo "add $(PREFIX)/bin to PATH: export PATH=\"$(PREFIX)/bin:\$$PATH\"";; esac

## run: the bundled demo (or ARGS="URL …"); with no display, under Xvfb with a screenshot
run: build
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ]; then \
		.build/debug/vitrine $(ARGS); \
	else \
		mkdir -p $(dir $(SCREENSHOT)); \
		echo "no display: running under Xvfb and writing a screenshot"; \
		$(XVFB) .build/debug/vitrine --exit-after-load --screenshot $(SCREENSHOT) $(ARGS) && \
		echo "screenshot: $(abspath $(SCREENSHOT))"; \
	fi

## generated (or reference): the files made from the program's declarations — the open
## command's configuration flags (from the option table), the manual pages vitrine.1 and
## vitrine.toml.5, and docs/reference/. Committed; `make test` fails when one is stale.
## Builds twice when the flags changed, so that vitrine.1 shows them.
GENERATED := config-flags:Sources/vitrine/ConfigFlags.swift vitrine.1:packaging/man/vitrine.1 \
	vitrine.toml.5:packaging/man/vitrine.toml.5 \
	$(foreach page,configuration cli events mqtt metrics,reference/$(page).md:docs/reference/$(page).md)
.PHONY: generated reference
reference: generated
generated: pkg-config-dir
	$(SWIFT) build $(SWIFT_PKG_CONFIG) --product vitrine
	.build/debug/vitrine generate config-flags > Sources/vitrine/ConfigFlags.swift.new
	mv Sources/vitrine/ConfigFlags.swift.new Sources/vitrine/ConfigFlags.swift
	$(SWIFT) build $(SWIFT_PKG_CONFIG) --product vitrine
	@for entry in $(GENERATED); do \
		what=$${entry%%:*}; file=$${entry#*:}; \
		.build/debug/vitrine generate $$what > $$file.new && mv $$file.new $$file && echo "wrote $$file"; \
	done

## test: the JavaScript SDK's tests, core, adapter and command-line tests with no display,
## then window tests (real WebKitGTK) under Xvfb, then the kiosk session under cage
## (when apt can install cage). The one compile-heavy test, a new project's own build
## (test-new-project), runs alongside them at low priority (Tests/alongside.sh), so that
## both cores work; each stage's time and the run's wall clock are printed at the end.
test: deps pkg-config-dir
	@bash Tests/stage.sh --reset
	bash Tests/stage.sh js $(MAKE) --no-print-directory test-js
	bash Tests/stage.sh build $(SWIFT) build $(SWIFT_PKG_CONFIG) --build-tests
	@apt-cache policy cage 2>/dev/null | grep -q 'Candidate: [^(]' || \
		echo "skipping test-kiosk-session: apt has no cage package here"
	MAKE="$(MAKE)" bash Tests/alongside.sh new-project:test-new-project -- \
		core:test-core window:test-window docs:docs \
		$$(apt-cache policy cage 2>/dev/null | grep -q 'Candidate: [^(]' && echo kiosk-session:test-kiosk-session)
	@bash Tests/stage.sh --report

## check: the inner loop, no display: the SDK's JavaScript, a build, the core, tooling and
## command-line tests (no window tests, no nested project build)
.PHONY: check
check: deps pkg-config-dir
	$(MAKE) --no-print-directory test-js
	$(SWIFT) build $(SWIFT_PKG_CONFIG) --build-tests
	$(MAKE) --no-print-directory test-core

## vitrine-types: the typed-strategies generator (Tools/vitrine-types, a package of its own so
## that no other build compiles swift-syntax), into Tools/vitrine-types/.build
.PHONY: vitrine-types
vitrine-types:
	$(SWIFT) build --package-path Tools/vitrine-types --product vitrine-types

## sdk-types: the built-in typed strategies' TypeScript (page, the capabilities, the SDK's own
## page-error), written by vitrine-types into Resources/sdk/vitrine.d.ts's marked region
## (VitrineTypesTests reads SDK_TYPE_SOURCES from here and checks it)
SDK_TYPE_SOURCES = Sources/Vitrine/Capabilities Sources/Vitrine/Bridge/PageStrategy.swift Sources/Vitrine/Reports/PageErrorStrategy.swift
.PHONY: sdk-types
sdk-types: vitrine-types
	"$$($(SWIFT) build --package-path Tools/vitrine-types --show-bin-path)/vitrine-types" \
		--into Resources/sdk/vitrine.d.ts --output Resources/sdk/vitrine.d.ts $(SDK_TYPE_SOURCES)

## test-js: the SDK's JavaScript (Resources/sdk/) under Node's test runner, fake WebKit
test-js:
	node --test Tests/sdk/*.test.js

test-core: pkg-config-dir
	env -u DISPLAY -u WAYLAND_DISPLAY bash Tests/with-failure-summary.sh \
		$(SWIFT) test $(SWIFT_PKG_CONFIG) --skip-build --filter 'VitrineTests|VitrineToolingTests|VitrineCLITests' \
		--skip NewProjectBuildTests

## test-new-project: `vitrine new`'s project built, run, developed and bundled (a nested
## swift build), from the built tests. The test binary is run directly: `swift test` (and
## `swift build --show-bin-path`) would wait for the lock on .build the stages beside it hold.
test-new-project: pkg-config-dir
	env -u DISPLAY -u WAYLAND_DISPLAY bash Tests/with-failure-summary.sh \
		.build/debug/VitrinePackageTests.xctest \
		--testing-library swift-testing --filter 'VitrineCLITests.NewProjectBuildTests'

test-window: pkg-config-dir
	SWIFT=$(SWIFT) bash Tests/with-failure-summary.sh bash Tests/run-window-tests.sh

## bench: Vitrine (release, linked as in the .deb) against a
## plain C WebKitGTK program doing the same work, interleaved, ratios printed; fails with bench-gate
bench: bench-gate
	$(XVFB) python3 benchmarks/startup.py --vitrine .build-static/release/vitrine --runs 10 --page-kind static

## bench-gate: start-up and memory against the C program with Vitrine's sandbox and renderer
## choice, 9 interleaved runs and the C program against itself (the noise band); exit status 1
## when a ratio is beyond 1.05 and beyond that band
.PHONY: bench-gate
bench-gate: release
	$(XVFB) python3 benchmarks/startup.py --vitrine .build-static/release/vitrine --runs 9 --noise --gate 1.05

## release: the program as the .deb builds it, in .build-static. Relinked every time:
## SwiftPM does not notice a change of linker flags or of packaging/startup-order.txt.
.PHONY: release
release: deps pkg-config-dir
	rm -f .build-static/release/vitrine
	$(SWIFT) build $(RELEASE_BUILD_FLAGS) $(SWIFT_PKG_CONFIG) --scratch-path .build-static --product vitrine

## size-check: the release program as shipped, stripped, is at most 20 MB and has no ICU in
## it (Foundation's internationalization, 34 MB of data, comes with one Foundation-only call)
.PHONY: size-check
size-check: release
	bash Tests/package/binary-size.sh .build-static/release/vitrine 20

clean:
	rm -rf .build out benchmarks/bin

## deb: the Debian package out/vitrine_<version>_<arch>.deb (dpkg-buildpackage, then lintian)
# See debian/README.source. debian/rules builds in .build-deb with the Swift standard
# library linked statically; `swift` comes from PATH or /opt/swift/usr/bin.
DEB_TOOLS := debhelper dpkg-dev lintian appstream desktop-file-utils
# The version from the first line of debian/changelog: "vitrine (0.1.0-1) unstable; …".
VITRINE_DEB_VERSION := $(shell sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' debian/changelog 2>/dev/null)
VITRINE_DEB_ARCH := $(shell dpkg --print-architecture 2>/dev/null)
VITRINE_DEB := out/vitrine_$(VITRINE_DEB_VERSION)_$(VITRINE_DEB_ARCH).deb

.PHONY: deb test-deb
deb: deps
	@$(call install_missing,$(DEB_TOOLS))
	dpkg-buildpackage -b -us -uc
	@# dpkg-buildpackage writes next to the source tree: move the results into out/.
	mkdir -p out
	@v="$(VITRINE_DEB_VERSION)"; a="$(VITRINE_DEB_ARCH)"; \
	for f in ../vitrine_$${v}_$${a}.deb ../vitrine-dbgsym_$${v}_$${a}.deb \
	         ../vitrine_$${v}_$${a}.buildinfo ../vitrine_$${v}_$${a}.changes; do \
		if [ -f "$$f" ]; then mv -f "$$f" out/ && echo "out/$$(basename $$f)"; fi; \
	done
	@# Errors fail the build; warnings and informational tags are shown but accepted.
	lintian --fail-on error --display-info $(VITRINE_DEB)
	@ls -l $(VITRINE_DEB)

## test-kiosk-session: the shipped packaging/kiosk/kiosk-session run as the service runs it,
## as an unprivileged user under cage (headless wlroots), with the debug build; a grim
## screenshot must show the page, and SIGTERM must end the session cleanly
.PHONY: test-kiosk-session
# wayvnc and ss (iproute2): the second session's [remote.vnc], read by Support/rfb_pixel.py.
KIOSK_TEST_PACKAGES := cage grim xwayland dbus python3 wayvnc iproute2
test-kiosk-session: build
	@$(call install_missing,$(KIOSK_TEST_PACKAGES))
	$(SUDO) bash Tests/package/kiosk-session-under-cage.sh .build/debug/vitrine

## test-deb: install the package and run the installed program under Xvfb
test-deb: deb
	bash Tests/package/install-and-run.sh $(VITRINE_DEB)

## bench-ipc: script-message round trips, Vitrine's `ping` against a C WebKitGTK echo,
## interleaved, ratios printed, for strings, objects and bytes, with the C program's own
## noise band beside them (--noise; see benchmarks/README.md)
.PHONY: bench-ipc
bench-ipc: release
	for kind in string object binary; do \
	  $(XVFB) python3 benchmarks/ipc.py --vitrine .build-static/release/vitrine --kind $$kind --runs 5 --noise || exit 1; \
	done

## bench-recovery: kiosk recovery after a web-process kill vs a cold start; memory over 500 navigations
bench-recovery: release
	$(XVFB) python3 benchmarks/recovery.py --vitrine .build-static/release/vitrine --runs 5

## bench-mqtt: one broker, one kiosk: navigate-to-load latency through MQTT, and the kiosk's
## CPU and memory at ~100 events/s with and without [remote.mqtt]
.PHONY: bench-mqtt
bench-mqtt: release
	$(XVFB) python3 benchmarks/mqtt.py --vitrine .build-static/release/vitrine

## bench-soak: minutes of navigations, reloads and web-process kills in one kiosk; memory
## and file descriptors at the end over the start
.PHONY: bench-soak
bench-soak: release
	$(XVFB) python3 benchmarks/soak.py --vitrine .build-static/release/vitrine

## bench-transitions: a two-page playlist captured at 30 fps; frames of neither page per
## transition, [schedule] preload on and off
.PHONY: bench-transitions
bench-transitions: release
	$(XVFB) python3 benchmarks/transitions.py --vitrine .build-static/release/vitrine --transitions 20

## bench-alert: MQTT cmd/alert until the alert page is on screen, against a C WebKitGTK
## view told to load the same page
.PHONY: bench-alert
bench-alert: release
	$(XVFB) python3 benchmarks/alert.py --vitrine .build-static/release/vitrine --runs 20

## bench-playlist-soak: 2,000 playlist transitions with preload, then the C floor; memory along the way
.PHONY: bench-playlist-soak
bench-playlist-soak: release
	$(XVFB) python3 benchmarks/playlist_soak.py --vitrine .build-static/release/vitrine --transitions 2000

## docs: the DocC documentation of the Vitrine and VitrineGTK libraries, into .build/docs
## (swift-docc-plugin); a warning (a broken symbol link) fails it
.PHONY: docs
docs: deps pkg-config-dir
	rm -rf .build/docs && mkdir -p .build/docs
	for target in Vitrine VitrineGTK; do \
		$(SWIFT) package $(SWIFT_PKG_CONFIG) --allow-writing-to-directory .build/docs generate-documentation \
			--target $$target --warnings-as-errors --output-path .build/docs/$$target || exit 1; \
	done
