import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import Vitrine

/// Gathers a support bundle's inputs from the running kiosk and packs them (`SupportArchive`
/// decides the parts) into `.tar.gz` bytes with the system's `tar`. The window's PNG and
/// the GTK/WebKit facts are read on the main loop; the slow parts (`journalctl`, `cage -v`,
/// `tar`) run off it, so the page keeps drawing while a bundle is made.
@MainActor
struct SupportArchiveMaker {
    /// The configuration in force, already redacted; nil with `configurationMissing` saying why.
    var configuration: String?
    var configurationMissing = "this kiosk was not started from a configuration file (--config)"
    var events: [String]
    var metrics: String?
    let container: WebContainer

    /// The bundle's bytes, or why it could not be made.
    func make() async throws -> [UInt8] {
        let folder = try Self.privateFolder()
        defer { Self.removeFolder(folder) }
        var inputs = SupportArchive.Inputs(configuration: configuration, events: events, metrics: metrics)
        if configuration == nil { inputs.missing[SupportArchive.Part.configuration.rawValue] = configurationMissing }
        if metrics == nil { inputs.missing[SupportArchive.Part.metrics.rawValue] = "no metrics are kept" }
        let shot = folder + "/window.png"
        do {
            try await container.snapshot(to: shot)
            inputs.screenshot = FileManager.default.contents(atPath: shot).map(Array.init)
        } catch {
            inputs.missing[SupportArchive.Part.screenshot.rawValue] = "the window could not be captured: \(error)"
        }
        unlink(shot)
        inputs.renderer = renderer()
        let mainLoopVersions = versions()
        let offLoop = await Task.detached { () -> (versions: [(String, String)], journal: Result<String, RemoteCommandError>) in
            var versions = mainLoopVersions
            if let cage = Self.run("cage", ["-v"]).map({ $0.trimmingWhitespace }), !cage.isEmpty {
                versions.append(("cage", cage))
            }
            return (versions, Self.journal())
        }.value
        inputs.versions = offLoop.versions
        switch offLoop.journal {
        case .success(let text): inputs.journal = text
        case .failure(let why): inputs.missing[SupportArchive.Part.journal.rawValue] = why.description
        }
        let bundle = SupportArchive(inputs, createdAt: Date.now.formatted(.iso8601))
        return try await Task.detached { () throws -> [UInt8] in try Self.pack(bundle, in: folder) }.value
    }

    /// The versions the running process links: Vitrine's, WebKitGTK's, GTK's, GStreamer's
    /// (asked of the library WebKit loaded), and the kernel's.
    private func versions() -> [(String, String)] {
        var versions = [("Vitrine", VitrineVersion.string),
                        ("WebKitGTK", "\(webkit_get_major_version()).\(webkit_get_minor_version()).\(webkit_get_micro_version())"),
                        ("GTK", "\(gtk_get_major_version()).\(gtk_get_minor_version()).\(gtk_get_micro_version())")]
        // WebKit links GStreamer; its own symbol says which one, without a header of ours.
        typealias VersionString = @convention(c) () -> UnsafeMutablePointer<CChar>?
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "gst_version_string"),
           let text = unsafeBitCast(symbol, to: VersionString.self)() {
            versions.append(("GStreamer", String(cString: text)))
            g_free(text)
        } else {
            versions.append(("GStreamer", "not loaded"))
        }
        var name = utsname()
        uname(&name)
        let field = { (value: Any) in Mirror(reflecting: value).children.compactMap { $0.value as? CChar }.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) } }
        versions.append(("kernel", String(decoding: field(name.sysname), as: UTF8.self) + " " + String(decoding: field(name.release), as: UTF8.self)
                         + " " + String(decoding: field(name.machine), as: UTF8.self)))
        return versions
    }

    /// How pages are drawn: the configuration's policy, the display backend, the GPUs the
    /// kernel has (DRM cards and their drivers), the environment's overrides.
    private func renderer() -> [(String, String)] {
        let configuration = container.configuration
        let rendering = ProcessRendering.choice(for: configuration)
        var facts = [("hardware-acceleration", "\(rendering.policyName) (\(rendering.reason.rawValue))"),
                     ("gl-renderer", rendering.renderer ?? "unknown"),
                     ("dmabuf-renderer", getenv(RenderingChoice.dmabufRendererVariable) != nil ? "off"
                        : rendering.policy == .never ? "off (not looked for: compositing is off)" : "on")]
        if let display = gdk_display_get_default() {
            facts.append(("display", String(cString: g_type_name_from_instance(UnsafeMutablePointer<GTypeInstance>(display))) + " " + String(cString: gdk_display_get_name(display))))
        }
        let cards = (try? FileManager.default.contentsOfDirectory(atPath: "/sys/class/drm"))?.filter { $0.hasPrefix("card") && !$0.contains("-") }.sorted() ?? []
        for card in cards {
            let device = "/sys/class/drm/\(card)/device"
            let read = { (file: String) in (try? String(contentsOfFile: "\(device)/\(file)", encoding: .utf8))?.trimmingWhitespace ?? "?" }
            let driver = (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(device)/driver")).map { URL(fileURLWithPath: $0).lastPathComponent } ?? "?"
            facts.append(("gpu \(card)", "vendor \(read("vendor")) device \(read("device")) driver \(driver)"))
        }
        if cards.isEmpty { facts.append(("gpu", "no DRM device (software rendering)")) }
        for variable in [RenderingChoice.dmabufRendererVariable, RenderingChoice.compositingModeVariable, RenderingChoice.renderDeviceVariable,
                         "LIBGL_ALWAYS_SOFTWARE", "GDK_BACKEND", RenderingChoice.gdkGLVariable] {
            if let value = getenv(variable) { facts.append((variable, String(cString: value))) }
        }
        return facts
    }

    /// The unit's last journal lines: the service this process runs in, if any.
    private nonisolated static func journal() -> Result<String, RemoteCommandError> {
        guard let cgroup = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8),
              let unit = SupportArchive.unit(fromCgroup: cgroup)
        else { return .failure(RemoteCommandError("this process does not run in a systemd service")) }
        guard let text = run("journalctl", ["-u", unit, "-n", "\(SupportArchive.journalLines)", "--no-pager", "-o", "short-iso"]) else {
            return .failure(RemoteCommandError("journalctl is not available or failed for \(unit)"))
        }
        return .success(text)
    }

    /// A program's standard output, found on PATH; nil when it is missing or fails.
    private nonisolated static func run(_ program: String, _ arguments: [String]) -> String? {
        ProgramOutput.of(program, arguments)
    }

    /// Writes the files into `folder/bundle/` and has `tar` pack them.
    private nonisolated static func pack(_ bundle: SupportArchive, in folder: String) throws -> [UInt8] {
        let staging = folder + "/bundle"
        guard mkdir(staging, 0o700) == 0 else { throw RemoteCommandError("cannot make the bundle's folder: \(String(cString: strerror(errno)))") }
        for file in bundle.files {
            guard FileManager.default.createFile(atPath: staging + "/" + file.name, contents: Data(file.bytes), attributes: [.posixPermissions: 0o600]) else {
                throw RemoteCommandError("cannot write \(file.name) into the bundle")
            }
        }
        let archive = folder + "/bundle.tar.gz"
        guard run("tar", ["-czf", archive, "-C", staging, "--owner=0", "--group=0", "--"] + bundle.files.map(\.name)) != nil,
              let bytes = FileManager.default.contents(atPath: archive)
        else { throw RemoteCommandError("tar could not pack the bundle") }
        return Array(bytes)
    }

    private static func privateFolder() throws -> String {
        var template = Array((String(cString: g_get_tmp_dir()) + "/vitrine-support-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw RemoteCommandError("cannot make a private folder: \(String(cString: strerror(errno)))") }
        return String(cString: made)
    }

    private static func removeFolder(_ folder: String) {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Writes `bytes` to `path`, which must not exist: into a private file beside it first,
    /// then linked into place (`link` never replaces a file and never follows a symbolic
    /// link at its destination), so the file appears whole or not at all.
    static func writeExclusively(_ bytes: [UInt8], to path: String) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var template = Array((folder + "/.vitrine-support-XXXXXX").utf8CString)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else { throw RemoteCommandError("cannot write into \(folder): \(String(cString: strerror(errno)))") }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        defer { unlink(temporary) }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            written += count
        }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == bytes.count, synced else { throw RemoteCommandError("cannot write \(path): \(String(cString: strerror(errno)))") }
        guard link(temporary, path) == 0 else {
            throw RemoteCommandError(errno == EEXIST ? "\(path) already exists; a support bundle never replaces a file"
                                                     : "cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }
}
