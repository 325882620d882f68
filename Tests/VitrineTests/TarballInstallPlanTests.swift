import Testing
import Vitrine

/// Where a tarball update goes beside the running version, which folders a success
/// removes, and when the new version has taken over or the old one comes back.
@Suite("Updates: the tarball's install plan and hand-over")
struct TarballInstallPlanTests {
    static func version(_ text: String) -> UpdateVersion { UpdateVersion(text)! }

    @Test func theNewVersionGoesBesideTheRunningOne() throws {
        let plan = try #require(TarballInstallPlan(programPath: "/opt/apps/shop-1.0.0/shop", package: "shop",
                                                   running: Self.version("1.0.0"), offered: Self.version("1.1.0")))
        #expect(plan.parent == "/opt/apps" && plan.runningFolder == "/opt/apps/shop-1.0.0" && plan.newFolder == "/opt/apps/shop-1.1.0")
        #expect(plan.link == "/opt/apps/shop" && plan.newProgram == "/opt/apps/shop/shop" && plan.archiveProgram == "shop-1.1.0/shop")
        // Everything it writes is in the same folder (one file system: rename is atomic), hidden until in place.
        for path in [plan.linkTemporary, plan.download, plan.staging, plan.beacon] {
            #expect(path.hasPrefix("/opt/apps/.shop"), "\(path)")
        }
    }

    @Test func onlyATarballsLayoutIsUpdatedInPlace() {
        let running = Self.version("1.0.0"), offered = Self.version("1.1.0")
        #expect(TarballInstallPlan(programPath: "/usr/lib/shop/shop", package: "shop", running: running, offered: offered) == nil)
        #expect(TarballInstallPlan(programPath: "/opt/shop-0.9.0/shop", package: "shop", running: running, offered: offered) == nil)
        #expect(TarballInstallPlan(programPath: "/opt/other-1.0.0/shop", package: "shop", running: running, offered: offered) == nil)
        #expect(TarballInstallPlan(programPath: "/opt/../-1.0.0/shop", package: "../", running: running, offered: offered) == nil)
    }

    @Test func aSuccessRemovesOnlyOlderVersions() throws {
        let plan = try #require(TarballInstallPlan(programPath: "/opt/shop-1.0.0/shop", package: "shop",
                                                   running: Self.version("1.0.0"), offered: Self.version("1.1.0")))
        let entries = ["shop-0.8.0", "shop-0.9.1", "shop-1.0.0", "shop-1.1.0", "shop", "shopping-0.1.0", "shop-notes", ".shop-1.1.0.tar.gz.part"]
        #expect(plan.obsoleteFolders(among: entries, replaced: Self.version("1.0.0")) == ["/opt/shop-0.8.0", "/opt/shop-0.9.1"])
    }

    @Test func theHandOverEndsOnTheBeaconAnExitOrTheLimit() {
        let limit = Duration.seconds(30)
        #expect(UpdateHandoff.outcome(beaconWritten: false, exitStatus: nil, limitPassed: false, limit: limit) == nil)
        #expect(UpdateHandoff.outcome(beaconWritten: true, exitStatus: nil, limitPassed: false, limit: limit) == .handedOver)
        #expect(UpdateHandoff.outcome(beaconWritten: true, exitStatus: 0, limitPassed: true, limit: limit) == .handedOver)
        #expect(UpdateHandoff.outcome(beaconWritten: false, exitStatus: 3, limitPassed: false, limit: limit)
            == .rolledBack(reason: "the new version exited (status 3) before its page loaded"))
        #expect(UpdateHandoff.outcome(beaconWritten: false, exitStatus: nil, limitPassed: true, limit: limit)
            == .rolledBack(reason: "the new version did not load its page within 30 s"))
    }
}

extension TarballInstallPlanTests {
    /// A signed tarball is still unpacked only inside its own folder, without links, with its program.
    @Test func theTarballsEntriesStayInItsFolder() throws {
        let plan = try #require(TarballInstallPlan(programPath: "/opt/shop-1.0.0/shop", package: "shop",
                                                   running: Self.version("1.0.0"), offered: Self.version("1.1.0")))
        let good = [BundleArchiveEntry(path: "shop-1.1.0/", kind: .directory), BundleArchiveEntry(path: "shop-1.1.0/shop", kind: .file, size: 10),
                    BundleArchiveEntry(path: "./shop-1.1.0/web/index.html", kind: .file, size: 5)]
        #expect(try plan.acceptedEntries(good).get().map(\.path) == ["shop-1.1.0", "shop-1.1.0/shop", "shop-1.1.0/web/index.html"])
        func refusal(_ extra: BundleArchiveEntry) -> String? {
            if case .failure(let reason) = plan.acceptedEntries(good + [extra]) { return reason.description }
            return nil
        }
        #expect(refusal(BundleArchiveEntry(path: "shop-1.0.0/shop", kind: .file)) == "the tarball holds more than its shop-1.1.0 folder")
        #expect(refusal(BundleArchiveEntry(path: "shop-1.1.0.evil/x", kind: .file)) == "the tarball holds more than its shop-1.1.0 folder")
        #expect(refusal(BundleArchiveEntry(path: "shop-1.1.0/../../etc/x", kind: .file))?.contains("leaves the bundle") == true)
        #expect(refusal(BundleArchiveEntry(path: "shop-1.1.0/lib", kind: .symlink))?.contains("is a link") == true)
        let noProgram = plan.acceptedEntries([BundleArchiveEntry(path: "shop-1.1.0/web/index.html", kind: .file)])
        #expect(noProgram == .failure(TarballRefusal(description: "the tarball is refused: it has no 'shop-1.1.0/shop' to show")))
    }
}
