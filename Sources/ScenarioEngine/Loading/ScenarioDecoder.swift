import Foundation

/// Turns a parsed scenario document into a ``Scenario``, collecting every issue on the way.
///
/// The decoder never stops at the first problem: each part is checked on its own so that
/// `scenario lint` can list everything wrong with a file at once.
package struct ScenarioDecoder {
    /// An object whose keys were checked, with its members by key.
    struct Members {
        let node: JSONNode
        let path: String
        /// The allowed members, in written order: a few, so a search costs less than an index.
        let allowed: [JSONNode.Member]
        /// Allowed keys suggested for misspelt ones: a missing key that was misspelt is not reported twice.
        var suggested: Set<String> = []

        subscript(key: String) -> JSONNode.Member? { allowed.first { $0.key == key } }

        func path(_ key: String) -> String { JSONPath.appending(path, key: key) }

        func has(_ key: String) -> Bool { self[key] != nil }
    }

    let file: String
    let directory: String
    let actions: [String: ActionSpec]
    let actionNames: [String]
    let givenKeys: [GivenSpec]
    var issues: [LoadIssue] = []
    /// Every exchange id read so far (explicit or defaulted), in order, for suggestions.
    var exchangeIds: [String] = []
    /// Every step name read so far, in order.
    var stepNames: [String] = []
    /// Where each exchange id was first given (line, column), for duplicates; references are
    /// checked against its keys, so long files stay linear.
    var firstExchangeUse: [String: Position] = [:]
    /// Where each step name was first given, for duplicates and references.
    var firstStepName: [String: Position] = [:]
    /// Whether exchanges and steps are still being read: a reference to an id or a name not
    /// read yet may be to a later one, so it is checked once the whole file is read.
    var reading = false
    /// References checked at the end of the read.
    var laterReferences: [LaterReference] = []
    /// Whether decoded exchanges and steps are kept (a check keeps none).
    var keepsElements = true
    /// The exchanges and steps decoded as the parser read them.
    var readExchanges: [Exchange] = []
    var readSteps: [Step] = []
    /// Steps read, those of them that compare something (an `expect`, a `check`), and exchanges
    /// that must be used (not `optional`), kept or not.
    var stepCount = 0
    var checkingSteps = 0
    var requiredExchanges = 0

    /// A line and column: all a duplicate's message needs of the first one, for a fraction of
    /// a location's memory (a file can hold a hundred thousand ids).
    struct Position {
        var line: Int
        var column: Int

        init(_ location: ScenarioLocation) {
            line = location.line
            column = location.column
        }
    }

    /// A reference to an exchange or step that was not read yet when it was met.
    enum LaterReference {
        case after(id: String, location: ScenarioLocation)
        case exchange(id: String, location: ScenarioLocation, what: String)
        case step(name: String, location: ScenarioLocation)
    }
    /// Handles `start` steps created that no `await` consumed yet, with where they were started.
    var runningHandles: [String: ScenarioLocation] = [:]
    /// Handles already awaited.
    var awaitedHandles: Set<String> = []
    /// The invariants of the files that govern the scenario.
    var inheritedInvariants: [Invariant] = []

    init(file: String, directory: String, actions: [ActionSpec], givenKeys: [GivenSpec]) {
        self.file = file
        self.directory = directory
        var byName: [String: ActionSpec] = [:]
        for action in actions where byName[action.name] == nil { byName[action.name] = action }
        self.actions = byName
        self.actionNames = actions.map(\.name)
        self.givenKeys = givenKeys
    }

    // MARK: The document

    /// Decodes the document around the exchanges and steps the parser already handed over
    /// (`reading` is still set, so references to them are checked at the end).
    mutating func decodeScenario(_ root: JSONNode, id: String) -> Scenario? {
        guard let top = object(root, at: JSONPath.root, "the scenario", allowed: ScenarioKeys.topLevel) else {
            return nil
        }
        _ = string(top, K.schema)
        let name = string(top, K.name, required: true, nonEmpty: true)
        let description = string(top, K.description, required: true)
        let tags = stringArray(top, K.tags) ?? []
        let (given, clockStart) = decodeGiven(top)
        let exchanges = decodeExchanges(top)
        let steps = decodeSteps(top)
        var expect = Expectations()
        if let member = top[K.expect] {
            expect = decodeExpectations(member.value, at: top.path(K.expect), "'\(K.expect)'") ?? Expectations()
        }
        let relax = decodeRelax(top)
        var timeLimit = Scenario.defaultTimeLimit
        if let member = top[K.timeLimit], let limit = duration(member.value, at: top.path(K.timeLimit), "'\(K.timeLimit)'") {
            if limit <= .zero {
                report("'\(K.timeLimit)' must be longer than zero", member.value, top.path(K.timeLimit))
            } else {
                timeLimit = limit
            }
        }
        let limits = decodeLimits(top)
        var lateAnswers = Scenario.defaultLateAnswers
        if let member = top[K.lateAnswers], let bound = duration(member.value, at: top.path(K.lateAnswers), "'\(K.lateAnswers)'") {
            lateAnswers = bound
        }
        let secretKeys = stringArray(top, K.secrets) ?? []
        var changes = InvariantChanges()
        if let member = top[K.invariants] {
            changes = decodeInvariantChanges(member.value, at: top.path(K.invariants), known: inheritedInvariants.map(\.id))
        }
        checkLaterReferences()
        let invariants = inheritedInvariants.filter { changes.off[$0.id] == nil } + changes.add
        // Besides what it expects, a scenario checks that the exchanges it needs are used, and that
        // the steps it takes send nothing unscripted; with none of these it passes whatever the app did.
        let checksTraffic =
            (requiredExchanges > 0 && !relax.unusedExchanges) || (stepCount > 0 && !relax.unmatchedRequests)
        if issues.isEmpty, !checksTraffic, checkingSteps == 0, top[K.expect] == nil, invariants.isEmpty {
            report(
                "the scenario checks nothing: no '\(K.expect)', no '\(K.check)' step, no invariant, and no exchange or step whose requests are checked",
                root, JSONPath.root,
                hint: "add what the app must end with, such as \"\(K.expect)\": {\"\(K.requests)\": {\"\(K.total)\": 0}}")
        }
        guard issues.isEmpty, let name, let description else { return nil }
        var scenario = Scenario(
            id: id, name: name, description: description, tags: tags, file: file,
            location: location(root, JSONPath.root), given: given, clockStart: clockStart,
            exchanges: exchanges, steps: steps, expect: expect, relax: relax, timeLimit: timeLimit)
        scenario.limits = limits
        scenario.lateAnswers = lateAnswers
        scenario.secretKeys = secretKeys
        scenario.invariants = invariants
        scenario.invariantsOff = changes.off
        return scenario
    }

    // MARK: References

    /// Reports each reference met before the whole file was read that names nothing after all.
    private mutating func checkLaterReferences() {
        reading = false
        let references = laterReferences
        laterReferences = []
        for reference in references {
            switch reference {
            case .after(let id, let location): checkAfter(id, at: location)
            case .exchange(let id, let location, let what): _ = checkExchangeReference(id, at: location, what)
            case .step(let name, let location): _ = checkStepReference(name, at: location)
            }
        }
    }

    /// Whether `name` is a step's name; reports it otherwise (or once the file is read).
    mutating func checkStepReference(_ name: String, at location: ScenarioLocation) -> Bool {
        guard firstStepName[name] == nil else { return true }
        if reading {
            laterReferences.append(.step(name: name, location: location))
            return true
        }
        report(
            "'\(K.atStep)' names no step: no step has \"\(K.name)\": \"\(name)\"", at: location, hint: Self.didYouMean(name, stepNames))
        return false
    }

    private mutating func decodeLimits(_ top: Members) -> Limits {
        var limits = Limits()
        guard let member = top[K.limits],
            let members = object(member.value, at: top.path(K.limits), "'\(K.limits)'", allowed: ScenarioKeys.limits)
        else { return limits }
        if let wakes = members[K.wakes] {
            limits.wakes = integer(wakes.value, at: members.path(K.wakes), "'limits.wakes'", minimum: 1) ?? limits.wakes
        }
        if let jobs = members[K.jobs] {
            limits.jobs = integer(jobs.value, at: members.path(K.jobs), "'limits.jobs'", minimum: 1) ?? limits.jobs
        }
        return limits
    }

    private mutating func decodeRelax(_ top: Members) -> Relaxations {
        guard let member = top[K.relax],
            let relax = object(member.value, at: top.path(K.relax), "'\(K.relax)'", allowed: ScenarioKeys.relax)
        else { return Relaxations() }
        return Relaxations(
            unmatchedRequests: bool(relax, K.unmatchedRequests) ?? false,
            unusedExchanges: bool(relax, K.unusedExchanges) ?? false)
    }

    // MARK: given

    private mutating func decodeGiven(_ top: Members) -> (JSONValue, Date) {
        var clockStart = Scenario.defaultClockStart
        let allowed = [ScenarioKeys.givenClock] + givenKeys.map(\.name)
        guard let member = top[K.given] else {
            checkRequiredGiven(present: [], at: top.node, path: top.path)
            return (.object([:]), clockStart)
        }
        guard
            let given = object(
                member.value, at: top.path(K.given), "'\(K.given)'", allowed: allowed,
                listHint: "the driver takes: \(givenKeys.map(\.name).joined(separator: ", ")) (see 'scenario actions')")
        else { return (.object([:]), clockStart) }
        var rest = JSONObject()
        for entry in given.node.members ?? [] {
            let path = given.path(entry.key)
            if entry.key == ScenarioKeys.givenClock {
                if let clock = object(entry.value, at: path, "'\(K.clock)'", allowed: ScenarioKeys.clock) {
                    if let start = clock[K.start] {
                        clockStart = instant(start.value, at: clock.path(K.start)) ?? clockStart
                    }
                }
            } else if let spec = givenKeys.first(where: { $0.name == entry.key }) {
                checkValue(entry.value, at: path, against: spec, owner: "given key '\(entry.key)'")
                rest[entry.key] = entry.value.value
            }
        }
        checkRequiredGiven(present: Set(given.allowed.map(\.key)), at: given.node, path: given.path)
        return (.object(rest), clockStart)
    }

    private mutating func checkRequiredGiven(present: Set<String>, at node: JSONNode, path: String) {
        for spec in givenKeys where spec.required && !present.contains(spec.name) {
            report("missing required given key '\(spec.name)' (\(spec.summary))", node, path)
        }
    }

    private mutating func instant(_ node: JSONNode, at path: String) -> Date? {
        guard let text = node.value.stringValue else {
            report(
                "'\(K.start)' must be an ISO-8601 instant string such as \"2026-10-21T05:28:00Z\"; got \(node.value.typeDescription)", node,
                path
            )
            return nil
        }
        guard let date = InstantReader.shared.date(from: text) else {
            report("'\(K.start)' must be an ISO-8601 instant such as \"2026-10-21T05:28:00Z\"; got \"\(text)\"", node, path)
            return nil
        }
        guard Scenario.clockStartRange.contains(date.timeIntervalSince1970) else {
            report(
                "'\(K.start)' must be between the years 1900 and 2199; got \"\(text)\"", node, path,
                hint: "the virtual wall clock counts nanoseconds since 1970 in 64 bits")
            return nil
        }
        return date
    }

    // MARK: Reporting

    func location(_ node: JSONNode, _ path: String) -> ScenarioLocation {
        ScenarioLocation(file: file, line: node.line, column: node.column, path: path)
    }

    func keyLocation(_ member: JSONNode.Member, _ path: String) -> ScenarioLocation {
        ScenarioLocation(file: file, line: member.keyLine, column: member.keyColumn, path: path)
    }

    mutating func report(_ message: String, _ node: JSONNode, _ path: String, hint: String? = nil) {
        issues.append(LoadIssue(location: location(node, path), message: message, hint: hint))
    }

    mutating func report(_ message: String, at location: ScenarioLocation, hint: String? = nil) {
        issues.append(LoadIssue(location: location, message: message, hint: hint))
    }

    static func didYouMean(_ word: String, _ candidates: [String]) -> String? {
        Suggestion.closest(to: word, in: candidates).map { "did you mean '\($0)'?" }
    }

    /// What a value is, for "got ..." in messages: short scalars are shown, the rest by type.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .number, .bool, .null: value.compactText
        case .string(let text) where text.count <= 40: JSONValue.string(text).compactText
        default: value.typeDescription
        }
    }

    /// As ``describe(_:)`` for the value of `name`, told by its type alone where the name holds a
    /// secret: digits (a PIN) are masked only beside their name, which a message does not write.
    static func describe(_ value: JSONValue, of name: String) -> String {
        RedactionPolicy().isCredentialName(name) ? value.typeDescription : describe(value)
    }
}

/// ISO-8601 instants with and without fractional seconds, by two formatters made once: making
/// one costs more than the rest of a small scenario's `given`.
private final class InstantReader: @unchecked Sendable {
    static let shared = InstantReader()
    private let lock = NSLock()
    private let plain = ISO8601DateFormatter()
    private let fractional: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }()

    func date(from text: String) -> Date? {
        lock.withLock { plain.date(from: text) ?? fractional.date(from: text) }
    }
}

private typealias K = ScenarioKey
