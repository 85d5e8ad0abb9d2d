/// A place in a JSON document: member names and array positions from the root.
package typealias JSONPlace = [JSONPlaceStep]

/// One step of a ``JSONPlace``.
package enum JSONPlaceStep: Sendable, Hashable {
    case key(String)
    case index(Int)
}

extension JSONValue {
    /// The value at `place`; setting `nil` removes a member (an array element is removed by
    /// ``removing(_:)``, which keeps the other places of an array right), setting a value below
    /// a missing member makes it an object.
    package subscript(place place: JSONPlace) -> JSONValue? {
        get {
            var value: JSONValue? = self
            for step in place {
                switch (step, value) {
                case (.key(let key), .object(let object)?): value = object[key]
                case (.index(let index), .array(let elements)?) where elements.indices.contains(index): value = elements[index]
                default: return nil
                }
            }
            return value
        }
        set {
            guard let first = place.first else {
                if let newValue { self = newValue }
                return
            }
            let rest = Array(place.dropFirst())
            switch (first, self) {
            case (.key(let key), .object(var object)):
                if rest.isEmpty {
                    object[key] = newValue
                } else if newValue != nil || object[key] != nil {
                    // A member set below an object that is not there yet makes it.
                    var child = object[key] ?? .object(JSONObject())
                    child[place: rest] = newValue
                    object[key] = child
                }
                self = .object(object)
            case (.index(let index), .array(var elements)) where elements.indices.contains(index):
                if rest.isEmpty {
                    if let newValue { elements[index] = newValue }
                } else {
                    elements[index][place: rest] = newValue
                }
                self = .array(elements)
            default:
                break
            }
        }
    }

    /// The document without the values at `places`: members removed, and array elements
    /// removed deepest first and last to first, so that no removal moves a place still to go.
    package func removing(_ places: some Collection<JSONPlace>) -> JSONValue {
        var out = self
        let ordered = places.sorted { first, second in
            if first.count != second.count { return first.count > second.count }
            for (a, b) in zip(first, second) where a != b {
                switch (a, b) {
                case (.index(let x), .index(let y)): return x > y
                case (.key(let x), .key(let y)): return x > y
                case (.index, .key): return true
                case (.key, .index): return false
                }
            }
            return false
        }
        for place in ordered {
            guard let last = place.last else { continue }
            let parent = Array(place.dropLast())
            switch (last, out[place: parent]) {
            case (.key, .object?):
                out[place: place] = nil
            case (.index(let index), .array(var elements)?) where elements.indices.contains(index):
                elements.remove(at: index)
                out[place: parent] = .array(elements)
            default:
                break
            }
        }
        return out
    }

    /// The places of this value's children below `place`: an object's members, an array's elements.
    package func childPlaces(of place: JSONPlace) -> [JSONPlace] {
        switch self[place: place] {
        case .object(let object)?: object.keys.map { place + [.key($0)] }
        case .array(let elements)?: elements.indices.map { place + [.index($0)] }
        default: []
        }
    }
}
