import Foundation
import ScenarioEngine

/// The shrunk scenario as a file a person commits as it is: one line of `description` says what
/// it was shrunk from and what it fails by, `$schema` and answer `file` paths lead where they led
/// from the input's folder, and the invariants it fails by are the folder's, by id: a copy is
/// never written into the file (beside the team's `invariants.json` it would define the id twice).
struct ShrunkFile {
    let input: DiscoveredScenario
    let output: String
    let same: SameFailure
    /// The schedule the result fails under; `nil` for first in, first out.
    let schedule: JobSchedule?

    /// `document`, finished: renamed, described, its paths made to hold at `output`.
    func finished(_ document: ScenarioDocument, from size: ShrinkSize) -> ScenarioDocument {
        var out = document
        let inputFolder = Self.folder(of: input.path)
        let outputFolder = Self.folder(of: output)
        if let name = out.root[ScenarioKey.name]?.stringValue, !name.hasSuffix(" (shrunk)") {
            out[place: [.key(ScenarioKey.name)]] = .string(name + " (shrunk)")
        }
        let under = schedule.map { " under --replay-schedule \($0)" } ?? ""
        out[place: [.key(ScenarioKey.description)]] = .string(
            "Shrunk from \(Self.named(input.path)): \(size) → \(document.size.steps), \(document.size.exchanges); fails by \(same)\(under)."
        )
        if let schema = out.root[ScenarioKey.schema]?.stringValue {
            out[place: [.key(ScenarioKey.schema)]] = .string(Self.relocated(schema, from: inputFolder, to: outputFolder))
        } else if let schema = Self.schemaAbove(outputFolder) {
            out = ScenarioDocument(
                .object(JSONObject([(ScenarioKey.schema, .string(schema))] + (out.root.objectValue?.members ?? []))),
                stepOrigins: out.stepOrigins)
        }
        for (index, exchange) in out.exchanges.enumerated() {
            guard let body = exchange[ScenarioKey.response]?[ScenarioKey.file]?.stringValue else { continue }
            out[place: ScenarioDocument.exchangePlace(index) + [.key(ScenarioKey.response), .key(ScenarioKey.file)]] =
                .string(Self.relocated(body, from: inputFolder, to: outputFolder))
        }
        return withoutSwitchesOfUndefined(out).normalized()
    }

    /// Without `invariants.off` entries for ids no invariant file defines where it is written:
    /// the loader refuses a switch for nothing.
    private func withoutSwitchesOfUndefined(_ document: ScenarioDocument) -> ScenarioDocument {
        let offPlace: JSONPlace = [.key(ScenarioKey.invariants), .key(ScenarioKey.off)]
        guard let off = document[place: offPlace]?.objectValue else { return document }
        let defined = Set(InvariantFiles.inherited(path: output, id: Self.id(of: output)).invariants.map(\.id)).union(
            (document.root[ScenarioKey.invariants]?[ScenarioKey.add]?.arrayValue ?? []).compactMap { $0[ScenarioKey.id]?.stringValue })
        var out = document
        out[place: offPlace] = .object(JSONObject(unchecked: off.members.filter { defined.contains($0.key) }))
        return out
    }

    /// Whether the invariants the kept failure breaks govern a file at `output` as they govern
    /// the input: where they do not, the result is checked where the input is (the copy a test
    /// bundle writes among its reports belongs beside the team's scenarios).
    var keptInvariantsGovernOutput: Bool {
        let kept = Set(same.parts.filter { $0.kind == .invariant }.map(\.name))
        guard !kept.isEmpty else { return true }
        let atOutput = Set(InvariantFiles.inherited(path: output, id: Self.id(of: output)).invariants.map(\.id))
        return kept.isSubset(of: atOutput)
    }

    /// `scenario.schema.json` in `folder` or a folder above it (up to the working directory, or
    /// three levels), relative to `folder`: where `scenario init` puts it.
    static func schemaAbove(_ folder: String) -> String? {
        let start = URL(fileURLWithPath: folder).standardizedFileURL
        let stop = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path
        var current = start
        for level in 0..<4 {
            let candidate = current.appendingPathComponent("scenario.schema.json")
            if FileManager.default.fileExists(atPath: candidate.path) {
                return String(repeating: "../", count: level) + "scenario.schema.json"
            }
            if current.path == stop || current.path == "/" { break }
            current = current.deletingLastPathComponent()
        }
        return nil
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
