import Foundation
import ScenarioEngine

/// A scenario file's JSON as the shrinker edits it: members keep their written order, and every
/// edit leaves the document's references whole (``normalized()``), so that the strict loader
/// refuses as few candidates as possible. The loader still checks each one before it runs.
struct ScenarioDocument: Sendable, Equatable {
    private(set) var root: JSONValue
    /// Where each step stood in the input (1-based), so that what a run of the input did in a
    /// step (an explicit schedule's choices) can be found in the step it became.
    private(set) var stepOrigins: [Int]

    init(_ root: JSONValue, stepOrigins: [Int]? = nil) {
        self.root = root
        self.stepOrigins = stepOrigins ?? Array((root["steps"]?.arrayValue ?? []).indices.map { $0 + 1 })
    }

    /// The document in `text`, or `nil` when it is not a JSON object.
    init?(text: String) {
        guard let value = try? JSONTextParser(data: Data(text.utf8), file: "").parseDocument().value, value.objectValue != nil
        else { return nil }
        self.init(value)
    }

    /// Documents are the same when their JSON is.
    static func == (lhs: ScenarioDocument, rhs: ScenarioDocument) -> Bool { lhs.root == rhs.root }

    var steps: [JSONValue] { root["steps"]?.arrayValue ?? [] }
    var exchanges: [JSONValue] { root["exchanges"]?.arrayValue ?? [] }

    /// How big it is, as the shrinker reports it.
    var size: ShrinkSize { ShrinkSize(steps: steps.count, exchanges: exchanges.count) }

    /// Indented two spaces a level, members in order, as `scenario import` writes its drafts.
    var text: String { root.prettyText + "\n" }

    subscript(place place: JSONPlace) -> JSONValue? {
        get { root[place: place] }
        set { root[place: place] = newValue }
    }

    /// Each exchange without an `id` gets the one the loader gives it (`exchange-3`), so that
    /// references to it still hold once exchanges before it are gone.
    func withExchangeIDs() -> ScenarioDocument {
        var out = self
        for (index, exchange) in exchanges.enumerated() where exchange["id"] == nil {
            guard let object = exchange.objectValue else { continue }
            out[place: [.key("exchanges"), .index(index)]] = .object(
                JSONObject([("id", .string("exchange-\(index + 1)"))] + object.members))
        }
        return out
    }

    // MARK: Steps

    /// The step of `kind` (`start`, `await`, ...) at `index`, when it is one.
    func step(_ index: Int, is kind: String) -> Bool { steps[index][kind] != nil }

    /// The steps in removable units, in order: a `start` goes with the `await` of its handle.
    func stepUnits() -> [[Int]] {
        let steps = self.steps
        var units: [[Int]] = []
        var paired = Set<Int>()
        for index in steps.indices where !paired.contains(index) {
            var unit = [index]
            if let handle = steps[index]["as"]?.stringValue, steps[index]["start"] != nil,
                let end = steps.indices.dropFirst(index + 1).first(where: {
                    !paired.contains($0) && steps[$0]["await"]?.stringValue == handle
                })
            {
                unit.append(end)
                paired.insert(end)
            }
            units.append(unit)
        }
        return units
    }

    // MARK: Exchanges

    /// The exchanges' ids, in order.
    var exchangeIDs: [String] { exchanges.enumerated().map { $1["id"]?.stringValue ?? "exchange-\($0 + 1)" } }

    /// Without the exchanges of these ids, nor anything naming them (`after`, `requests.counts`,
    /// `requests.log` entries).
    func removingExchanges(_ ids: Set<String>) -> ScenarioDocument {
        removing(exchangeIDs.enumerated().filter { ids.contains($0.element) }.map { [.key("exchanges"), .index($0.offset)] })
    }

    // MARK: Any part

    /// Without the values at `places`, then ``normalized()``.
    func removing(_ places: [JSONPlace]) -> ScenarioDocument {
        let steps = Set(
            places.compactMap { place -> Int? in
                guard place.count == 2, place[0] == .key("steps"), case .index(let index) = place[1] else { return nil }
                return index
            })
        let origins = stepOrigins.enumerated().filter { !steps.contains($0.offset) }.map(\.element)
        return ScenarioDocument(root.removing(places), stepOrigins: origins).normalized()
    }

    /// With `value` at `place` (`nil` removes it), then ``normalized()``.
    func setting(_ place: JSONPlace, to value: JSONValue?) -> ScenarioDocument {
        var out = self
        out[place: place] = value
        return out.normalized()
    }

    /// The document with what an edit left dangling taken out: `after` and `release.atStep`
    /// naming what is gone, `requests.counts` and `log` entries of removed exchanges, and the
    /// containers the loader refuses empty (an `expect`, a `check` step, `state`, `counts`, a
    /// `group`, `given`, `relax`, the parts of `invariants`).
    func normalized() -> ScenarioDocument {
        var out = self
        while true {
            let before = out
            out.tidyExchanges()
            out.tidySteps()
            if let expect = out.root["expect"] { out[place: [.key("expect")]] = Self.tidied(expectations: expect, ids: out.exchangeIDs) }
            if var changes = out.root["invariants"]?.objectValue {
                if changes["add"]?.arrayValue?.isEmpty == true { changes["add"] = nil }
                if changes["off"]?.objectValue?.isEmpty == true { changes["off"] = nil }
                out[place: [.key("invariants")]] = .object(changes)
            }
            for key in ["given", "relax", "invariants"] where out.root[key]?.objectValue?.isEmpty == true {
                out[place: [.key(key)]] = nil
            }
            if out == before { return out }
        }
    }

    private mutating func tidyExchanges() {
        let ids = Set(exchangeIDs)
        let names = Set(steps.compactMap { $0["name"]?.stringValue })
        for (index, exchange) in exchanges.enumerated() {
            guard var object = exchange.objectValue else { continue }
            switch object["after"] {
            case .string(let id)? where !ids.contains(id): object["after"] = nil
            case .array(let list)?:
                let kept = list.filter { $0.stringValue.map(ids.contains) ?? true }
                object["after"] = kept.isEmpty ? nil : .array(kept)
            default: break
            }
            if let step = object["release"]?["atStep"]?.stringValue, !names.contains(step) { object["release"] = nil }
            self[place: [.key("exchanges"), .index(index)]] = .object(object)
        }
    }

    private mutating func tidySteps() {
        guard root["steps"] != nil else { return }
        let ids = exchangeIDs
        let kept: [(step: JSONValue, origin: Int)] = zip(steps, stepOrigins).compactMap { step, origin in
            guard var object = step.objectValue else { return (step, origin) }
            if let check = object["check"] {
                guard let tidied = Self.tidied(expectations: check, ids: ids) else { return nil }
                object["check"] = tidied
            }
            if object["group"]?.arrayValue?.isEmpty == true { return nil }
            return (.object(object), origin)
        }
        self[place: [.key("steps")]] = .array(kept.map(\.step))
        stepOrigins = kept.map(\.origin)
    }

    /// An `expect` or `check` without counts and log entries of exchanges that are gone and
    /// without the parts the loader refuses empty; `nil` when nothing is left.
    private static func tidied(expectations: JSONValue, ids: [String]) -> JSONValue? {
        guard var object = expectations.objectValue else { return expectations }
        let known = Set(ids + [ScenarioKeys.unmatched])
        if var requests = object["requests"]?.objectValue {
            if let counts = requests["counts"]?.objectValue {
                let kept = counts.members.filter { known.contains($0.key) }
                requests["counts"] = kept.isEmpty ? nil : .object(JSONObject(unchecked: kept))
            }
            if let log = requests["log"]?.arrayValue {
                let kept = log.filter { $0["exchange"]?.stringValue.map(known.contains) ?? true }
                requests["log"] = kept.isEmpty ? nil : .array(kept)
            }
            object["requests"] = requests.isEmpty ? nil : .object(requests)
        }
        if object["state"]?.objectValue?.isEmpty == true { object["state"] = nil }
        return object.isEmpty ? nil : .object(object)
    }
}

/// How big a scenario is, as the shrinker reports it.
package struct ShrinkSize: Sendable, Hashable, CustomStringConvertible {
    package var steps: Int
    package var exchanges: Int

    package init(steps: Int, exchanges: Int) {
        self.steps = steps
        self.exchanges = exchanges
    }

    /// `135 steps, 15 exchanges`.
    package var description: String {
        "\(steps) step\(steps == 1 ? "" : "s"), \(exchanges) exchange\(exchanges == 1 ? "" : "s")"
    }
}
