import Foundation

/// A scenario file as it is written and edited: the one writer of the format, beside its loader.
/// Members keep their written order, every edit leaves the document's references whole
/// (``normalized()``), and ``text`` writes it the one way scenario files are written (two spaces a
/// level). Import, shrink, init and export build and change scenarios through it; the loader
/// checks what it writes like any file.
package struct ScenarioDocument: Sendable, Equatable {
    package private(set) var root: JSONValue
    /// Where each step stood in the input (1-based), so that what a run of the input did in a
    /// step (an explicit schedule's choices) can be found in the step it became.
    package private(set) var stepOrigins: [Int]

    package init(_ root: JSONValue, stepOrigins: [Int]? = nil) {
        self.root = root
        self.stepOrigins = stepOrigins ?? Array((root[ScenarioKey.steps]?.arrayValue ?? []).indices.map { $0 + 1 })
    }

    /// The document in `text`, or `nil` when it is not a JSON object.
    package init?(text: String) {
        guard let value = try? JSONTextParser(data: Data(text.utf8), file: "").parseDocument().value, value.objectValue != nil
        else { return nil }
        self.init(value)
    }

    /// Documents are the same when their JSON is.
    package static func == (lhs: ScenarioDocument, rhs: ScenarioDocument) -> Bool { lhs.root == rhs.root }

    package var steps: [JSONValue] { root[ScenarioKey.steps]?.arrayValue ?? [] }
    package var exchanges: [JSONValue] { root[ScenarioKey.exchanges]?.arrayValue ?? [] }

    /// Indented two spaces a level, members in order, as `scenario import` writes its drafts.
    package var text: String { root.prettyText + "\n" }

    /// Where the exchange at `index` is written.
    package static func exchangePlace(_ index: Int) -> JSONPlace { [.key(ScenarioKey.exchanges), .index(index)] }

    /// Where the step at `index` is written.
    package static func stepPlace(_ index: Int) -> JSONPlace { [.key(ScenarioKey.steps), .index(index)] }

    package subscript(place place: JSONPlace) -> JSONValue? {
        get { root[place: place] }
        set { root[place: place] = newValue }
    }

    /// Each exchange without an `id` gets the one the loader gives it (`exchange-3`), so that
    /// references to it still hold once exchanges before it are gone.
    package func withExchangeIDs() -> ScenarioDocument {
        var out = self
        for (index, exchange) in exchanges.enumerated() where exchange[ScenarioKey.id] == nil {
            guard let object = exchange.objectValue else { continue }
            out[place: [.key(ScenarioKey.exchanges), .index(index)]] = .object(
                JSONObject([(ScenarioKey.id, .string("exchange-\(index + 1)"))] + object.members))
        }
        return out
    }

    // MARK: Steps

    /// The step of `kind` (`start`, `await`, ...) at `index`, when it is one.
    package func step(_ index: Int, is kind: String) -> Bool { steps[index][kind] != nil }

    /// The steps in removable units, in order: a `start` goes with the `await` of its handle.
    package func stepUnits() -> [[Int]] {
        let steps = self.steps
        var units: [[Int]] = []
        var paired = Set<Int>()
        for index in steps.indices where !paired.contains(index) {
            var unit = [index]
            if let handle = steps[index][ScenarioKey.as]?.stringValue, steps[index][ScenarioKey.start] != nil,
                let end = steps.indices.dropFirst(index + 1).first(where: {
                    !paired.contains($0) && steps[$0][ScenarioKey.await]?.stringValue == handle
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
    package var exchangeIDs: [String] { exchanges.enumerated().map { $1[ScenarioKey.id]?.stringValue ?? "exchange-\($0 + 1)" } }

    /// Without the exchanges of these ids, nor anything naming them (`after`, `requests.counts`,
    /// `requests.log` entries).
    package func removingExchanges(_ ids: Set<String>) -> ScenarioDocument {
        removing(exchangeIDs.enumerated().filter { ids.contains($0.element) }.map { [.key(ScenarioKey.exchanges), .index($0.offset)] })
    }

    // MARK: Any part

    /// Without the values at `places`, then ``normalized()``.
    package func removing(_ places: [JSONPlace]) -> ScenarioDocument {
        let steps = Set(
            places.compactMap { place -> Int? in
                guard place.count == 2, place[0] == .key(ScenarioKey.steps), case .index(let index) = place[1] else { return nil }
                return index
            })
        let origins = stepOrigins.enumerated().filter { !steps.contains($0.offset) }.map(\.element)
        return ScenarioDocument(root.removing(places), stepOrigins: origins).normalized()
    }

    /// With `value` at `place` (`nil` removes it), then ``normalized()``.
    package func setting(_ place: JSONPlace, to value: JSONValue?) -> ScenarioDocument {
        var out = self
        out[place: place] = value
        return out.normalized()
    }

    /// The document with what an edit left dangling taken out: `after` and `release.atStep`
    /// naming what is gone, `requests.counts` and `log` entries of removed exchanges, and the
    /// containers the loader refuses empty (an `expect`, a `check` step, `state`, `counts`, a
    /// `group`, `given`, `relax`, the parts of `invariants`).
    package func normalized() -> ScenarioDocument {
        var out = self
        while true {
            let before = out
            out.tidyExchanges()
            out.tidySteps()
            if let expect = out.root[ScenarioKey.expect] {
                out[place: [.key(ScenarioKey.expect)]] = Self.tidied(expectations: expect, ids: out.exchangeIDs)
            }
            if var changes = out.root[ScenarioKey.invariants]?.objectValue {
                if changes[ScenarioKey.add]?.arrayValue?.isEmpty == true { changes[ScenarioKey.add] = nil }
                if changes[ScenarioKey.off]?.objectValue?.isEmpty == true { changes[ScenarioKey.off] = nil }
                out[place: [.key(ScenarioKey.invariants)]] = .object(changes)
            }
            for key in [ScenarioKey.given, ScenarioKey.relax, ScenarioKey.invariants] where out.root[key]?.objectValue?.isEmpty == true {
                out[place: [.key(key)]] = nil
            }
            if out == before { return out }
        }
    }

    private mutating func tidyExchanges() {
        let ids = Set(exchangeIDs)
        let names = Set(steps.compactMap { $0[ScenarioKey.name]?.stringValue })
        for (index, exchange) in exchanges.enumerated() {
            guard var object = exchange.objectValue else { continue }
            switch object[ScenarioKey.after] {
            case .string(let id)? where !ids.contains(id): object[ScenarioKey.after] = nil
            case .array(let list)?:
                let kept = list.filter { $0.stringValue.map(ids.contains) ?? true }
                object[ScenarioKey.after] = kept.isEmpty ? nil : .array(kept)
            default: break
            }
            if let step = object[ScenarioKey.release]?[ScenarioKey.atStep]?.stringValue, !names.contains(step) {
                object[ScenarioKey.release] = nil
            }
            self[place: [.key(ScenarioKey.exchanges), .index(index)]] = .object(object)
        }
    }

    private mutating func tidySteps() {
        guard root[ScenarioKey.steps] != nil else { return }
        let ids = exchangeIDs
        let kept: [(step: JSONValue, origin: Int)] = zip(steps, stepOrigins).compactMap { step, origin in
            guard var object = step.objectValue else { return (step, origin) }
            if let check = object[ScenarioKey.check] {
                guard let tidied = Self.tidied(expectations: check, ids: ids) else { return nil }
                object[ScenarioKey.check] = tidied
            }
            if object[ScenarioKey.group]?.arrayValue?.isEmpty == true { return nil }
            return (.object(object), origin)
        }
        self[place: [.key(ScenarioKey.steps)]] = .array(kept.map(\.step))
        stepOrigins = kept.map(\.origin)
    }

    /// An `expect` or `check` without counts and log entries of exchanges that are gone and
    /// without the parts the loader refuses empty; `nil` when nothing is left.
    private static func tidied(expectations: JSONValue, ids: [String]) -> JSONValue? {
        guard var object = expectations.objectValue else { return expectations }
        let known = Set(ids + [ScenarioKeys.unmatched])
        if var requests = object[ScenarioKey.requests]?.objectValue {
            if let counts = requests[ScenarioKey.counts]?.objectValue {
                let kept = counts.members.filter { known.contains($0.key) }
                requests[ScenarioKey.counts] = kept.isEmpty ? nil : .object(JSONObject(unchecked: kept))
            }
            if let log = requests[ScenarioKey.log]?.arrayValue {
                let kept = log.filter { $0[ScenarioKey.exchange]?.stringValue.map(known.contains) ?? true }
                requests[ScenarioKey.log] = kept.isEmpty ? nil : .array(kept)
            }
            object[ScenarioKey.requests] = requests.isEmpty ? nil : .object(requests)
        }
        if object[ScenarioKey.state]?.objectValue?.isEmpty == true { object[ScenarioKey.state] = nil }
        return object.isEmpty ? nil : .object(object)
    }
}
