/// An action a driver offers to scenarios, with its arguments, so files can be checked
/// before they run and authors can list what there is without reading source.
public struct ActionSpec: Sendable, Hashable {
    /// The name steps use in `do`.
    package var name: String
    /// One line on what it does.
    package var summary: String
    /// Its arguments.
    package var arguments: [ArgumentSpec]

    /// Creates an action description.
    public init(_ name: String, _ summary: String, arguments: [ArgumentSpec] = []) {
        self.name = name
        self.summary = summary
        self.arguments = arguments
    }
}

/// One argument of an action.
public struct ArgumentSpec: Sendable, Hashable {
    /// The JSON type an argument takes.
    public enum ValueType: String, Sendable, Hashable {
        case string, number, integer, boolean, object, array, any
        /// A duration string above zero, such as `"15s"`.
        case duration
        /// A whole number above zero.
        case positiveInteger
    }

    /// The key under `with`.
    package var name: String
    /// Its JSON type.
    package var type: ValueType
    /// Whether it must be given.
    package var required: Bool
    /// One line on what it means.
    package var summary: String
    /// The only values allowed, when the argument is a choice.
    package var choices: [String]?
    /// For an object: the members it may hold, checked as deeply as the driver reads them
    /// (unknown names refused with a did-you-mean, required ones demanded). `nil`: any members.
    package var fields: [ArgumentSpec]?
    /// For an object whose members are all alike (a string map): what each member must be.
    package var eachValue: ValueType?

    /// Creates an argument description.
    public init(
        _ name: String, _ type: ValueType, required: Bool = false, _ summary: String, choices: [String]? = nil,
        fields: [ArgumentSpec]? = nil, eachValue: ValueType? = nil
    ) {
        self.name = name
        self.type = type
        self.required = required
        self.summary = summary
        self.choices = choices
        self.fields = fields
        self.eachValue = eachValue
    }
}

/// A key a driver accepts under `given`.
public typealias GivenSpec = ArgumentSpec
