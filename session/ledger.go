package session

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"strings"
)

// LedgerKey returns the key under which the ledger records the mail as
// handled, or "" when it has no Message-ID.
//
// The key is a digest of the sender, the Message-ID, the subject and the
// body. A Message-ID alone is no key: anybody may send a mail with the
// Message-ID that a player's mail will come with, and the player's mail
// would then be dropped as a duplicate. Whoever sends the same sender,
// Message-ID and text first only makes that mail count early. A mail the
// mail server or the IMAP poller offers again is the same mail, with the
// same key, and is applied once.
func (in *Mail) LedgerKey() string {
	return mailKey(in.From, in.MessageID, in.Subject, in.Body)
}

// mailKey returns the ledger key of a mail known by its sender, its
// Message-ID and what there is of its content, or "" without a
// Message-ID: nothing then tells a second copy from a second mail.
func mailKey(from, messageID string, content ...string) string {
	if messageID == "" {
		return ""
	}
	h := sha256.New()
	fields := append([]string{strings.ToLower(strings.TrimSpace(from)), messageID}, content...)
	for _, f := range fields {
		// Each field with its length first, so that no two lists of
		// fields are written the same.
		h.Write(binary.BigEndian.AppendUint64(nil, uint64(len(f))))
		h.Write([]byte(f))
	}
	return "mail:" + hex.EncodeToString(h.Sum(nil))
}

// legacyKey is the key under which gmd recorded a mail before mailKey:
// "msgid:" and its Message-ID alone. No such key is written any more;
// one already in the ledger still counts, so that a mail handled before
// an upgrade is not applied again when it is offered again after it.
// They go with the rest of the ledger after ledger-retention.
func legacyKey(messageID string) string {
	if messageID == "" {
		return ""
	}
	return "msgid:" + messageID
}
