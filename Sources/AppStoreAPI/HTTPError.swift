/// A request that got no HTTP answer: no connection, a timeout, a cut response, a body past the cap.
package struct HTTPError: Error, Sendable, CustomStringConvertible {
    package var description: String
}
