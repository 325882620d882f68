# The release build of `vitrine` as shipped: the Swift runtime linked statically (Debian
# has no Swift runtime package), linked by lld so that the program pays less memory for
# that runtime. Included by the top-level Makefile (benchmarks) and by debian/rules (the
# package), so what is measured is what is installed. Both run from the source root ($(CURDIR)).
#
# - pack-relative-relocs (DT_RELR, glibc >= 2.36): the static runtime needs ~75,000
#   relative relocations; as RELA entries they are 1.8 MB of pages read at every start,
#   as RELR a few kilobytes.
# - symbol-ordering-file: the functions that run from process start to the first page
#   load (packaging/startup-order.txt, made by packaging/startup-order.py under valgrind)
#   are laid out together, so start-up touches a few hundred kilobytes of code instead of
#   pages spread over the whole 15 MB text. A stale list only costs memory, never
#   correctness: names that no longer exist are ignored.
# - no-export-dynamic: nothing looks the program's own symbols up at run time, so its
#   dynamic symbol table needs only what it imports (SwiftPM exports every symbol).
RELEASE_LINK_FLAGS := -Xswiftc -use-ld=lld \
	-Xlinker -z -Xlinker pack-relative-relocs \
	-Xlinker --symbol-ordering-file=$(CURDIR)/packaging/startup-order.txt \
	-Xlinker --no-warn-symbol-ordering \
	-Xlinker --no-export-dynamic
# - no ICU: every module of the program uses FoundationEssentials only, but TOMLKit imports
#   Foundation, and that import alone lists Foundation, its internationalization and ICU
#   among the libraries to link. Linked statically, Foundation's archive then wins the
#   lookup of symbols that both it and FoundationEssentials define, and brings everything
#   with it: 34 MB of ICU data, 60 MB stripped instead of 17. Not listing them keeps them
#   out; anything that really needed them would fail to link (`make size-check` checks).
NO_FULL_FOUNDATION_FLAGS := $(foreach library,Foundation FoundationInternationalization _FoundationICU CoreFoundation,\
	-Xswiftc -Xfrontend -Xswiftc -disable-autolink-library -Xswiftc -Xfrontend -Xswiftc $(library))
RELEASE_BUILD_FLAGS := -c release --static-swift-stdlib $(RELEASE_LINK_FLAGS) $(NO_FULL_FOUNDATION_FLAGS)
