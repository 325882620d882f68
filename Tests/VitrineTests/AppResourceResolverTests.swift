import Foundation
import Testing
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

    func resolvedPath(_ result: Result<URL, AppResourceResolver.Failure>) -> String? {
        if case .success(let url) = result { return url.path }
        return nil
    }

    @Test func servesFilesAndDirectoryIndexes() throws {
        let tree = try Tree()
        defer { tree.remove() }
        let resolver = AppResourceResolver(root: tree.root)
        #expect(resolvedPath(resolver.resolve(encodedPath: "/css/site.css")) == tree.root.appendingPathComponent("css/site.css").path)
        #expect(resolvedPath(resolver.resolve(encodedPath: "/")) == tree.root.appendingPathComponent("index.html").path)
        #expect(resolvedPath(resolver.resolve(encodedPath: "")) == tree.root.appendingPathComponent("index.html").path)
        #expect(resolvedPath(resolver.resolve(encodedPath: "/sub")) == tree.root.appendingPathComponent("sub/index.html").path)
        #expect(resolvedPath(resolver.resolve(encodedPath: "/sub/")) == tree.root.appendingPathComponent("sub/index.html").path)
        #expect(resolvedPath(resolver.resolve(encodedPath: "/a%20b.txt")) == tree.root.appendingPathComponent("a b.txt").path)
        #expect(resolvedPath(resolver.resolve(encodedPath: "/alias.css")) == tree.root.appendingPathComponent("css/site.css").path,
                "a symlink inside the directory is followed")
    }

    @Test func missingFilesAreNotFound() throws {
        let tree = try Tree()
        defer { tree.remove() }
        let resolver = AppResourceResolver(root: tree.root)
        #expect(resolver.resolve(encodedPath: "/nope.html") == .failure(.notFound))
        #expect(resolver.resolve(encodedPath: "/docs/") == .failure(.notFound), "a folder without index.html")
        #expect(resolver.resolve(encodedPath: "/css/site.css/more") == .failure(.notFound))
    }

    @Test(arguments: ["/../outside/secret.txt", "/css/../../outside/secret.txt", "/%2e%2e/outside/secret.txt",
                      "/%2E%2E/outside/secret.txt", "/..%2foutside%2fsecret.txt", "/css%2f..%2f..%2foutside",
                      "/index.html%00.png", "/./index.html", "/%zz", "/a%5Cb"])
    func waysOutAreForbidden(_ path: String) throws {
        let tree = try Tree()
        defer { tree.remove() }
        #expect(AppResourceResolver(root: tree.root).resolve(encodedPath: path) == .failure(.forbidden))
    }

    @Test func symlinksOutOfTheDirectoryAreForbidden() throws {
        let tree = try Tree()
        defer { tree.remove() }
        let resolver = AppResourceResolver(root: tree.root)
        #expect(resolver.resolve(encodedPath: "/escape") == .failure(.forbidden))
        #expect(resolver.resolve(encodedPath: "/escape-dir/secret.txt") == .failure(.forbidden))
    }

    @Test func rootIsResolvedThroughSymlinks() throws {
        let tree = try Tree()
        defer { tree.remove() }
        let link = tree.base.appendingPathComponent("root-link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: tree.root)
        let resolver = AppResourceResolver(root: link)
        #expect(resolver.root.path == tree.root.path)
        #expect(resolvedPath(resolver.resolve(encodedPath: "/index.html")) == tree.root.appendingPathComponent("index.html").path)
    }
}
