import Support

/// An option of a group, bound to where its value goes: its declaration (name, help, how its
/// text becomes a value) and its effect are one expression, as swift-argument-parser's
/// `@Option var grace` is; here a key path says where the value lands.
///
/// A group is a list of them (`DataOptions.bindings`): its help lists, its parsing and where
/// each value goes all come from that one list, so an option added there is listed, parsed and
/// applied with nothing else to touch.
struct Bound<Target>: Sendable {
    let spec: OptionSpec
    let apply: @Sendable (ParsedArguments, inout Target) throws(UsageError) -> Void
}

extension Option {
    /// The value, when given, into `path`.
    func into<Target>(_ path: WritableKeyPath<Target, Value> & Sendable) -> Bound<Target> {
        into(path) { $0 }
    }

    /// The value, when given, into the optional at `path`.
    func into<Target>(_ path: WritableKeyPath<Target, Value?> & Sendable) -> Bound<Target> {
        into(path) { $0 }
    }

    /// The value, when given, made what `path` holds by `transform`.
    func into<Target, Stored>(
        _ path: WritableKeyPath<Target, Stored> & Sendable, _ transform: @escaping @Sendable (Value) -> Stored
    ) -> Bound<Target> {
        Bound(spec: spec) { (arguments, target) throws(UsageError) in
            if let value = try arguments.value(self) { target[keyPath: path] = transform(value) }
        }
    }

    /// Every value of a repeatable option, in the order given, made what `path` holds by
    /// `transform` (nothing when none is given).
    func intoAll<Target, Stored>(
        _ path: WritableKeyPath<Target, Stored> & Sendable, _ transform: @escaping @Sendable ([Value]) -> Stored
    ) -> Bound<Target> {
        Bound(spec: spec) { (arguments, target) throws(UsageError) in
            let values = try arguments.values(self)
            if !values.isEmpty { target[keyPath: path] = transform(values) }
        }
    }
}

extension Flag {
    /// `value` into `path` when the flag is given.
    func into<Target>(_ path: WritableKeyPath<Target, Bool> & Sendable, setting value: Bool = true) -> Bound<Target> {
        Bound(spec: spec) { (arguments, target) throws(UsageError) in
            if arguments.isSet(self) { target[keyPath: path] = value }
        }
    }
}
