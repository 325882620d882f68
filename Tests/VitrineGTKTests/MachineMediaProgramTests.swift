import Foundation
import Testing
import Vitrine
import VitrineGTK
import VitrineTestSupport
import VitrineTestingGTK

extension WebKitTests {
    /// What the machine offers media and rendering, as the program logs it at start: the
    /// `media-codecs` line lists what GStreamer's decoders here play (the expectation comes
    /// from `gst-inspect-1.0`, not from a list written in the test), and the `renderer` line
    /// says Xvfb's software renderer (Mesa's only EGL device there) made it turn hardware
    /// acceleration off, unless the file chose; `check-config` names the driver, llvmpipe.
    @Suite
    struct MachineMediaProgramTests {
        /// Whether some installed GStreamer decoder accepts `mediaType` (gst-inspect-1.0 lists
        /// each element's pad templates; a decoder's sink pad names the compressed format).
        private static func decoderExists(for mediaType: String) throws -> Bool {
            let elements = try runProcess("/usr/bin/gst-inspect-1.0", ["--print-all"], timeout: 120).stdout
            // Each element's block starts at "Factory Details:"; a decoder's klass has "Decoder".
            return elements.components(separatedBy: "Factory Details:").contains { block in
                block.contains("Klass") && block.range(of: #"Klass\s+[^\n]*Decoder"#, options: .regularExpression) != nil
                    && block.range(of: "SINK template[\\s\\S]*?\(NSRegularExpression.escapedPattern(for: mediaType))(,|\\n|;)",
                                   options: .regularExpression) != nil
            }
        }

        private func startLines(_ arguments: [String]) throws -> [[String: Any]] {
            let log = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-media-\(UUID().uuidString).jsonl").path
            defer { try? FileManager.default.removeItem(atPath: log) }
            let run = try runProcess(try BuiltProducts.path("vitrine"), arguments + ["--exit-after-load", "--events", log], timeout: 90)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            return EventLine.parseAll(try String(contentsOfFile: log, encoding: .utf8))
        }

        @Test func theCodecsLineListsWhatGStreamerDecodesHere() throws {
            let lines = try startLines([])
            let codecs = try #require(lines.first { $0["type"] as? String == "media-codecs" }, "no media-codecs line")
            let decoders = Set(codecs["decoders"] as? [String] ?? []), missing = Set(codecs["missing"] as? [String] ?? [])
            for (format, mediaType) in [("VP9", "video/x-vp9"), ("VP8", "video/x-vp8"), ("Opus", "audio/x-opus"),
                                        ("H.264", "video/x-h264"), ("HEVC", "video/x-h265"), ("AV1", "video/x-av1")] {
                let expected = try Self.decoderExists(for: mediaType)
                #expect(decoders.contains(format) == expected, "\(format): gst-inspect-1.0 says \(expected)")
                #expect(missing.contains(format) == !expected, "\(format)")
            }
        }

        /// The decoders are listed by a helper (`vitrine media-decoders`): GStreamer starts
        /// there, never in the long-lived program, whose memory so holds no registry. Each
        /// process that starts GStreamer writes its own debug file (`%p`, its pid).
        @Test func theDecodersAreListedInAProcessOfTheirOwn() throws {
            let folder = try ConfigFolder()
            try folder.write("app/index.html", "<!doctype html><title>app</title>")
            var environment = ProcessInfo.processInfo.environment
            environment["GST_DEBUG"] = "GST_INIT:4"
            environment["GST_DEBUG_FILE"] = folder.path + "/gst-%p.log"
            let app = try ProgramRun(["--app-dir", folder.path + "/app", "--new-instance", "--events", folder.path + "/events.jsonl"],
                                     environment: environment)
            defer { app.kill() }
            let codecs = try #require(app.waitForEvent(timeout: 60) { $0["type"] as? String == "media-codecs" },
                                      "no media-codecs line: \(app.standardError)")
            #expect(!(codecs["decoders"] as? [String] ?? []).isEmpty || !(codecs["missing"] as? [String] ?? []).isEmpty)
            let started = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { name in
                name.hasPrefix("gst-") && ((try? String(contentsOfFile: folder.path + "/" + name, encoding: .utf8)) ?? "")
                    .contains("Initializing GStreamer")
            }
            #expect(!started.contains("gst-\(app.process.processIdentifier).log"), "the program itself started GStreamer")
            #expect(!started.isEmpty, "no process started GStreamer to list the decoders")
            #expect(!app.standardError.contains("cannot list the media decoders"), "\(app.standardError)")
        }

        /// What the helper prints is read as the decoders' caps; a helper that fails is
        /// GStreamer's failure with what it said, and one that cannot start, with why.
        @Test(arguments: [
            (["/bin/sh", "-c", "printf 'video/x-vp8\\naudio/x-opus, channel-mapping-family=(int)0\\n'"], "decoders VP8, Opus"),
            (["/bin/sh", "-c", "echo 'registry unreadable' >&2; exit 3"], "GStreamer: registry unreadable"),
            (["/bin/sh", "-c", "exit 0"], "decoders "),
            (["/nonexistent/vitrine"], "GStreamer: Failed to execute child process"),
        ])
        @MainActor func theHelpersAnswerIsReadOnce(command: [String], expected: String) async throws {
            TestLoop.start()
            let before = ProcessRendering.decoderLister
            ProcessRendering.decoderLister = command
            defer { ProcessRendering.decoderLister = before }
            var answers: [String] = []
            ProcessRendering.listCodecs { codecs in
                switch codecs {
                case .success(let list): answers.append("decoders " + list.decodable.map(\.rawValue).sorted().joined(separator: ", "))
                case .failure(let error): answers.append(error.description)
                }
            }
            #expect(await TestLoop.wait { !answers.isEmpty })
            let answer = try #require(answers.first)
            if expected.hasPrefix("decoders ") {
                #expect(Set(answer.dropFirst(9).split(separator: ", ").map(String.init)) == Set(expected.dropFirst(9).split(separator: ", ").map(String.init)),
                        "\(answer)")
            } else {
                #expect(answer.hasPrefix(expected), "\(answer)")
            }
            #expect(answers.count == 1)
        }

        @Test func llvmpipeTurnsHardwareAccelerationOffUnlessTheFileChooses() throws {
            let lines = try startLines([])
            let renderer = try #require(lines.first { $0["type"] as? String == "renderer" }, "no renderer line")
            #expect((renderer["renderer"] as? String)?.contains("EGL_MESA_device_software") == true, "Xvfb renders on the CPU: \(renderer)")
            #expect(renderer["policy"] as? String == "never")
            #expect(renderer["reason"] as? String == "software-renderer")

            // A file names no page of its own (the demo app is only the no-file default): the
            // app folder gives the first load its page, or it would never finish.
            let folder = try ConfigFolder()
            let config = try folder.write("always.toml", "[rendering]\nhardware-acceleration = \"always\"\n")
            try folder.write("app/index.html", "<!doctype html><title>app</title>")
            let chosen = try #require(try startLines(["--config", config, "--app-dir", folder.path + "/app"])
                .first { $0["type"] as? String == "renderer" })
            #expect(chosen["policy"] as? String == "always")
            #expect(chosen["reason"] as? String == "configured")
        }

        /// With compositing off WebKit never draws through its DMA-BUF renderer, so the program
        /// does not let WebKit look for one. Looking initialises an EGL display, and on Xvfb
        /// Mesa's llvmpipe then starts its rasterizer threads (`llvmpipe-N`) in the program.
        /// Nor does WebKit look up a GPU's render node for its web processes, which loads
        /// Mesa's driver and LLVM into the program. With WebKit's own policy it does both.
        /// The variable that turns the renderer off is WebKit's first context's only: the
        /// programs started after it (the web process here) choose for themselves.
        @Test func compositingOffInitialisesNoGLDriverInTheProgram() throws {
            func glDriverInitialised(_ arguments: [String]) throws -> (threads: Bool, driver: Bool) {
                let folder = try ConfigFolder()
                try folder.write("app/index.html", "<!doctype html><title>app</title>")
                let app = try ProgramRun(arguments + ["--app-dir", folder.path + "/app", "--new-instance", "--events", folder.path + "/events.jsonl"])
                defer { app.kill() }
                _ = try #require(app.waitForEvent(timeout: 60) { $0["type"] as? String == "load" && $0["event"] as? String == "finished" },
                                 "no load: \(app.standardError)")
                let webProcesses = webProcessIDs(of: app.process.processIdentifier)
                #expect(!webProcesses.isEmpty, "the page has a web process")
                for pid in webProcesses {
                    let environment = procFile("/proc/\(pid)/environ")
                    for name in [RenderingChoice.dmabufRendererVariable, RenderingChoice.gdkGLVariable] {
                        #expect(!environment.split(separator: 0).contains { $0.starts(with: Data((name + "=").utf8)) },
                                "web process \(pid) inherited the first context's \(name)")
                    }
                    #expect(!environment.isEmpty, "web process \(pid)'s environment was read")
                }
                let tasks = "/proc/\(app.process.processIdentifier)/task"
                let threads = try FileManager.default.contentsOfDirectory(atPath: tasks).contains { task in
                    ((try? String(contentsOfFile: "\(tasks)/\(task)/comm", encoding: .utf8)) ?? "").hasPrefix("llvmpipe")
                }
                let maps = String(decoding: procFile("/proc/\(app.process.processIdentifier)/maps"), as: UTF8.self)
                return (threads, maps.contains("libLLVM") || maps.contains("swrast_dri") || maps.contains("libgallium"))
            }
            let never = try glDriverInitialised([])
            #expect(!never.threads, "policy never: WebKit looked for its DMA-BUF renderer")
            #expect(!never.driver, "policy never: WebKit loaded the GL driver to look up a render node")
            let folder = try ConfigFolder()
            let auto = try folder.write("auto.toml", "[rendering]\nhardware-acceleration = \"auto\"\n")
            let own = try glDriverInitialised(["--config", auto])
            #expect(own.threads, "WebKit's own policy: its DMA-BUF renderer is looked for")
            #expect(own.driver, "WebKit's own policy: the GL driver is loaded")
        }
    }
}
