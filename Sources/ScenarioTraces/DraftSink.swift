import ScenarioEngine

/// Where a draft goes: a member at a time, arrays an element at a time.
protocol DraftSink {
    mutating func member(_ key: String, _ value: JSONValue)
    mutating func beginArray(_ key: String)
    mutating func element(_ value: JSONValue)
    mutating func endArray()
}

extension PrettyObjectWriter: DraftSink {}

/// A draft as one JSON document, for callers that want the tree.
struct DraftDocument: DraftSink {
    var object = JSONObject()
    private var key = ""
    private var elements: [JSONValue] = []

    mutating func member(_ key: String, _ value: JSONValue) { object.appendNew(key, value) }

    mutating func beginArray(_ key: String) {
        self.key = key
        elements = []
    }

    mutating func element(_ value: JSONValue) { elements.append(value) }

    mutating func endArray() {
        object.appendNew(key, .array(elements))
        elements = []
    }
}
