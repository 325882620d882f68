import Foundation
import Testing
import Synchronization
import Vitrine

/// `app://` paths map into the app directory and never out of it.
@Suite("AppResourceResolver")
struct AppResourceResolverTests {
    /// root/index.html, root/css/site.css, root/docs/ (no index), root/sub/index.html;
    /// outside/secret.txt next to root; symlinks root/escape → outside/secret.txt,
    /// root/escape-dir → outside, root/alias.css → css/site.css.
    struct Tree {
        let base: URL
        var root: URL { base.appendingPathComponent("root") }
        var outside: URL { base.appendingPathComponent("outside") }

        init() throws {
            base = try makeTemporaryDirectory().resolvingSymlinksInPath()
            let fileManager = FileManager.default
            for folder in ["root/css", "root/docs", "root/sub", "outside"] {
                try fileManager.createDirectory(at: base.appendingPathComponent(folder), withIntermediateDirectories: true)
            }
            for file in ["root/index.html", "root/css/site.css", "root/sub/index.html", "outside/secret.txt", "root/a b.txt"] {
                try Data(file.utf8).write(to: base.appendingPathComponent(file))
            }
            try fileManager.createSymbolicLink(at: root.appendingPathComponent("escape"),
                                               withDestinationURL: outside.appendingPathComponent("secret.txt"))
            try fileManager.createSymbolicLink(at: root.appendingPathComponent("escape-dir"), withDestinationURL: outside)
            try fileManager.createSymbolicLink(at: root.appendingPathComponent("alias.css"),
                                               withDestinationURL: root.appendingPathComponent("css/site.css"))
        }

        func remove() { try? FileManager.default.removeItem(at: base) }
    }

    /// What an opened file holds (each test file holds its own path below `base`), the
    /// descriptor closed; nil for a failure.
    func served(_ result: Result<AppResourceResolver.OpenFile, AppResourceResolver.Failure>) -> String? {
        guard case .success(let file) = result else { return nil }
        defer { close(file.descriptor) }
        return FileSystem.readAll(file.descriptor, limit: 1 << 20).map { String(decoding: $0, as: UTF8.self) }
    }

    func failure(_ result: Result<AppResourceResolver.OpenFile, AppResourceResolver.Failure>) -> AppResourceResolver.Failure? {
        switch result {
        case .success(let file):
            close(file.descriptor)
            return nil
        case .failure(let failure): return failure
        }
    }

    @Test func servesFilesAndDirectoryIndexes() throws {
        let tree = try Tree()
        defer { tree.remove() }
        let resolver = AppResourceResolver(root: tree.root)
        #expect(served(resolver.open(encodedPath: "/css/site.css")) == "root/css/site.css")
        #expect(served(resolver.open(encodedPath: "/")) == "root/index.html")
        #expect(served(resolver.open(encodedPath: "")) == "root/index.html")
        #expect(served(resolver.open(encodedPath: "/sub")) == "root/sub/index.html")
        #expect(served(resolver.open(encodedPath: "/sub/")) == "root/sub/index.html")
        #expect(served(resolver.open(encodedPath: "/a%20b.txt")) == "root/a b.txt")
        #expect(served(resolver.open(encodedPath: "/alias.css")) == "root/css/site.css",
                "a symlink inside the directory is followed")
    }

    @Test func missingFilesAreNotFound() throws {
        let tree = try Tree()
        defer { tree.remove() }
        let resolver = AppResourceResolver(root: tree.root)
        #expect(failure(resolver.open(encodedPath: "/nope.html")) == .notFound)
        #expect(failure(resolver.open(encodedPath: "/docs/")) == .notFound, "a folder without index.html")
        #expect(failure(resolver.open(encodedPath: "/css/site.css/more")) == .notFound)
    }

    @Test(arguments: ["/../outside/secret.txt", "/css/../../outside/secret.txt", "/%2e%2e/outside/secret.txt",
                      "/%2E%2E/outside/secret.txt", "/..%2foutside%2fsecret.txt", "/css%2f..%2f..%2foutside",
                      "/index.html%00.png", "/./index.html", "/%zz", "/a%5Cb"])
    func waysOutAreForbidden(_ path: String) throws {
        let tree = try Tree()
        defer { tree.remove() }
        #expect(failure(AppResourceResolver(root: tree.root).open(encodedPath: path)) == .forbidden)
    }

    @Test func symlinksOutOfTheDirectoryAreForbidden() throws {
        let tree = try Tree()
        defer { tree.remove() }
        let resolver = AppResourceResolver(root: tree.root)
        #expect(failure(resolver.open(encodedPath: "/escape")) == .forbidden)
        #expect(failure(resolver.open(encodedPath: "/escape-dir/secret.txt")) == .forbidden)
    }

    @Test func rootIsResolvedThroughSymlinks() throws {
        let tree = try Tree()
        defer { tree.remove() }
        let link = tree.base.appendingPathComponent("root-link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: tree.root)
        let resolver = AppResourceResolver(root: link)
        #expect(resolver.root.path == tree.root.path)
        #expect(served(resolver.open(encodedPath: "/index.html")) == "root/index.html")
    }

    @Test func relativeSymlinksInsideAreFollowedAndOnesLeadingOutAreNot() throws {
        let tree = try Tree()
        defer { tree.remove() }
        let fileManager = FileManager.default
        try fileManager.createSymbolicLink(atPath: tree.root.appendingPathComponent("rel.css").path, withDestinationPath: "css/site.css")
        try fileManager.createSymbolicLink(atPath: tree.root.appendingPathComponent("css/up.html").path, withDestinationPath: "../index.html")
        try fileManager.createSymbolicLink(atPath: tree.root.appendingPathComponent("styles").path, withDestinationPath: "css")
        try fileManager.createSymbolicLink(atPath: tree.root.appendingPathComponent("sub/out").path, withDestinationPath: "../../outside/secret.txt")
        try fileManager.createSymbolicLink(atPath: tree.root.appendingPathComponent("loop").path, withDestinationPath: "loop")
        let resolver = AppResourceResolver(root: tree.root)
        #expect(served(resolver.open(encodedPath: "/rel.css")) == "root/css/site.css")
        #expect(served(resolver.open(encodedPath: "/css/up.html")) == "root/index.html")
        #expect(served(resolver.open(encodedPath: "/styles/site.css")) == "root/css/site.css")
        #expect(served(resolver.open(encodedPath: "/styles/up.html")) == "root/index.html", "`..` from the folder the link is in")
        #expect(failure(resolver.open(encodedPath: "/sub/out")) == .forbidden)
        #expect(failure(resolver.open(encodedPath: "/loop")) == .forbidden)
        if case .success(let file) = resolver.open(encodedPath: "/rel.css") {
            #expect(file.name == "site.css", "the type is the target's")
            close(file.descriptor)
        }
    }

    @Test func aFIFOIsNotServedAndDoesNotBlock() throws {
        let tree = try Tree()
        defer { tree.remove() }
        #expect(mkfifo(tree.root.appendingPathComponent("pipe").path, 0o644) == 0)
        #expect(failure(AppResourceResolver(root: tree.root).open(encodedPath: "/pipe")) == .notFound)
    }

    /// A writer swaps a file for a symlink to a secret outside, and back, as fast as it can,
    /// while the resolver opens the file thousands of times: the secret is never what it opens.
    @Test func aFileSwappedForASymlinkNeverServesItsTarget() throws {
        let tree = try Tree()
        defer { tree.remove() }
        let resolver = AppResourceResolver(root: tree.root)
        let swapped = tree.root.appendingPathComponent("swapped.txt").path
        let secret = tree.outside.appendingPathComponent("secret.txt").path
        try Data("public".utf8).write(to: URL(fileURLWithPath: swapped))
        let stop = StopFlag()
        let swapper = Thread {
            let file = swapped + ".file", link = swapped + ".link"
            while !stop.value.load(ordering: .relaxed) {
                _ = FileManager.default.createFile(atPath: file, contents: Data("public".utf8))
                rename(file, swapped)
                symlink(secret, link)
                rename(link, swapped)
            }
            stop.stopped.store(true, ordering: .releasing)
        }
        swapper.start()
        var seen: [String: Int] = [:]
        for _ in 0..<5000 {
            let result = resolver.open(encodedPath: "/swapped.txt")
            let key = served(result) ?? "\(failure(result).map { "\($0)" } ?? "?")"
            seen[key, default: 0] += 1
        }
        stop.value.store(true, ordering: .relaxed)
        while !stop.stopped.load(ordering: .acquiring) { usleep(1000) }
        #expect(seen["outside/secret.txt"] == nil, "\(seen)")
        #expect(seen["public", default: 0] > 0 && seen["forbidden", default: 0] > 0, "both states were met: \(seen)")
    }
}

/// Tells another thread to stop.
final class StopFlag: Sendable {
    let value = Atomic(false)
    let stopped = Atomic(false)
}
