import Foundation
import ScenarioEngine

/// The shrunk scenario as a file a person commits as it is: it says in `name` and `description`
/// what it was shrunk from and which failure it keeps, and it holds at its own place: `$schema`
/// and answer `file` paths lead where they led from the input's folder, and an invariant it
/// fails by that governs the input but not the place it is written to comes with it (`add`).
struct ShrunkFile {
    let input: DiscoveredScenario
    let output: String
    let same: SameFailure
    /// The schedule the result fails under; `nil` for first in, first out.
    let schedule: JobSchedule?

    /// `document`, finished: renamed, described, its paths and invariants made to hold at `output`.
    func finished(_ document: ScenarioDocument, from size: ShrinkSize) -> ScenarioDocument {
        var out = document
        let inputFolder = Self.folder(of: input.path)
        let outputFolder = Self.folder(of: output)
        if let name = out.root["name"]?.stringValue, !name.hasSuffix(" (shrunk)") {
            out[place: [.key("name")]] = .string(name + " (shrunk)")
        }
        let under = schedule.map { ", under --replay-schedule \($0)" } ?? ""
        let was = out.root["description"]?.stringValue.map { " It was: \($0)" } ?? ""
        out[place: [.key("description")]] = .string(
            "Shrunk by '\(ScenarioProcess.commandName) shrink' from \(Self.named(input.path)) (\(size)) to \(document.size); "
                + "it keeps the failure \(same)\(under).\(was)")
        if let schema = out.root["$schema"]?.stringValue {
            out[place: [.key("$schema")]] = .string(Self.relocated(schema, from: inputFolder, to: outputFolder))
        }
        for (index, exchange) in out.exchanges.enumerated() {
            guard let body = exchange["response"]?["file"]?.stringValue else { continue }
            out[place: [.key("exchanges"), .index(index), .key("response"), .key("file")]] =
                .string(Self.relocated(body, from: inputFolder, to: outputFolder))
        }
        return inheritingInvariants(out)
    }

    /// The invariants the kept failure breaks that would not govern the file at `output` come
    /// in its own `add`; switches for invariants that nothing defines there go.
    private func inheritingInvariants(_ document: ScenarioDocument) -> ScenarioDocument {
        let atInput = InvariantFiles.inherited(path: input.path, id: input.id).invariants
        let atOutput = Set(InvariantFiles.inherited(path: output, id: Self.id(of: output)).invariants.map(\.id))
        var out = document
        let own = Set((out.root["invariants"]?["add"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue })
        let kept = same.parts.filter { $0.kind == .invariant }.map(\.name)
        let missing = atInput.filter { kept.contains($0.id) && !atOutput.contains($0.id) && !own.contains($0.id) }
        let copies = missing.compactMap(Self.written)
        if !copies.isEmpty {
            out[place: [.key("invariants")]] = out.root["invariants"] ?? .object([:])
            out[place: [.key("invariants"), .key("add")]] = .array((out.root["invariants"]?["add"]?.arrayValue ?? []) + copies)
        }
        if let off = out.root["invariants"]?["off"]?.objectValue {
            let defined = atOutput.union(own).union(missing.map(\.id))
            out[place: [.key("invariants"), .key("off")]] = .object(JSONObject(unchecked: off.members.filter { defined.contains($0.key) }))
        }
        return out.normalized()
    }

    /// An invariant as written in its file (`$.invariants[3]` of the file it was read from).
    private static func written(_ invariant: Invariant) -> JSONValue? {
        let path = invariant.location.path
        guard path.hasPrefix("$.invariants["), let index = Int(path.dropFirst("$.invariants[".count).prefix { $0.isNumber }),
            let bytes = try? FileBytes.read(invariant.location.file),
            let file = try? JSONTextParser(data: Data(bytes), file: invariant.location.file).parseDocument().value
        else { return nil }
        return file[place: [.key("invariants"), .index(index)]]
    }

    /// How the file names the input: as given, or by its name alone when that was absolute (a
    /// committed file names no machine's folders).
    private static func named(_ path: String) -> String {
        path.hasPrefix("/") ? (path as NSString).lastPathComponent : path
    }

    /// The id a file written at `path` is known by on its own: its name without `.json`.
    static func id(of path: String) -> String {
        let name = (path as NSString).lastPathComponent
        return name.hasSuffix(".json") ? String(name.dropLast(".json".count)) : name
    }

    private static func folder(of path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        return folder.isEmpty ? "." : folder
    }

    /// `path`, relative to `from`, as seen from `to`; unchanged when absolute or when the two
    /// folders are one.
    static func relocated(_ path: String, from: String, to: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        let source = URL(fileURLWithPath: from).standardizedFileURL.path
        let target = URL(fileURLWithPath: to).standardizedFileURL.path
        guard source != target else { return path }
        let absolute = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: source, isDirectory: true)).standardizedFileURL.path
        let pathParts = absolute.split(separator: "/")
        let targetParts = target.split(separator: "/")
        let common = zip(pathParts, targetParts).prefix { $0 == $1 }.count
        let up = Array(repeating: "..", count: targetParts.count - common)
        return (up + pathParts.dropFirst(common).map(String.init)).joined(separator: "/")
    }
}
