/// A parsed JSON value with the position it was written at, and the positions of everything in it.
///
/// The loader walks nodes rather than bare ``JSONValue``s so that every issue can point at the
/// exact line and column of the key or value it is about.
package struct JSONNode: Sendable {
    /// The value, with everything below it.
    package var value: JSONValue
    /// 1-based line of the value's first character.
    package var line: Int
    /// 1-based column (in characters) of the value's first character.
    package var column: Int
    /// The nodes below this one.
    package var content: Content

    /// What is below a node.
    package enum Content: Sendable {
        /// A string, number, Boolean or `null`.
        case scalar
        /// An array's elements, in order.
        case array([JSONNode])
        /// An object's members, in written order.
        case object([Member])
    }

    /// One member of an object: its key, where the key is written, and its value.
    package struct Member: Sendable {
        /// The key.
        package var key: String
        /// 1-based line of the key's opening quote.
        package var keyLine: Int
        /// 1-based column of the key's opening quote.
        package var keyColumn: Int
        /// The value.
        package var value: JSONNode

        /// Creates a member.
        package init(key: String, keyLine: Int, keyColumn: Int, value: JSONNode) {
            self.key = key
            self.keyLine = keyLine
            self.keyColumn = keyColumn
            self.value = value
        }
    }

    /// Creates a node.
    package init(value: JSONValue, line: Int, column: Int, content: Content = .scalar) {
        self.value = value
        self.line = line
        self.column = column
        self.content = content
    }

    /// The members, when this is an object.
    package var members: [Member]? {
        if case .object(let members) = content { return members }
        return nil
    }

    /// The elements, when this is an array.
    package var elements: [JSONNode]? {
        if case .array(let elements) = content { return elements }
        return nil
    }

    /// The member named `key`, when this is an object that has one.
    package func member(_ key: String) -> Member? {
        members?.first { $0.key == key }
    }

    /// The value node of the member named `key`, when this is an object that has one.
    package subscript(key: String) -> JSONNode? {
        member(key)?.value
    }
}
