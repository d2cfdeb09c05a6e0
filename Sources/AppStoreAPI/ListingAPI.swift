import Support

/// A store's API as `fetch` pages through it.
///
/// Apple's App Store Server API or Google's Play Developer API; each call comes back after its
/// own retries.
package protocol ListingAPI: AnyObject {
    /// Where the calls go (said by `--dry-run`).
    var baseURL: String { get }
    /// Whose API it is, as a message names it: "Apple", "Google".
    var owner: String { get }
    /// What a refusal of the credentials says, and what to check.
    func unauthorized(status: Int, message: String?) -> String
    /// What to check when a call is refused with `status`, if there is something to say.
    func refusalAdvice(status: Int) -> String?
    /// `text` from a server, as a message may quote it: cut short, printable, no secret of the run.
    func shown(_ text: String) -> String
    /// True when `bytes` hold a secret of the run (a token the server echoed): never written.
    func holdsSecret(_ bytes: [UInt8]) -> Bool
    /// One page of a listing, after its retries.
    func page(_ method: String, _ path: String, body: [UInt8], deadline: Timestamp) throws -> APIOutcome
}
