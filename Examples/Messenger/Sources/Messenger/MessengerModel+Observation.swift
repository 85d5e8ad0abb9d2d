#if canImport(Combine)
    import Combine

    /// SwiftUI views observe the model's `@Published` properties.
    extension MessengerModel: ObservableObject {}
#endif
