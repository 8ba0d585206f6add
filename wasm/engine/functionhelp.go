package engine

import (
	"strings"

	"echomq.dev/playground/wasm/resp"
)

// functionHelp is Redis 7.0's reply to FUNCTION HELP, one status line each.
func functionHelp() resp.Reply {
	lines := strings.Split(functionHelpText, "\n")
	out := make([]resp.Reply, len(lines))
	for i, l := range lines {
		out[i] = resp.StatusReply(l)
	}
	return resp.ArrayReply(out...)
}

const functionHelpText = `FUNCTION <subcommand> [<arg> [value] [opt] ...]. Subcommands are:
LOAD [REPLACE] <FUNCTION CODE>
    Create a new library with the given library name and code.
DELETE <LIBRARY NAME>
    Delete the given library.
LIST [LIBRARYNAME PATTERN] [WITHCODE]
    Return general information on all the libraries:
    * Library name
    * The engine used to run the Library
    * Library description
    * Functions list
    * Library code (if WITHCODE is given)
    It also possible to get only function that matches a pattern using LIBRARYNAME argument.
STATS
    Return information about the current function running:
    * Function name
    * Command used to run the function
    * Duration in MS that the function is running
    If no function is running, return nil
    In addition, returns a list of available engines.
KILL
    Kill the current running function.
FLUSH [ASYNC|SYNC]
    Delete all the libraries.
    When called without the optional mode argument, the behavior is determined by the
    lazyfree-lazy-user-flush configuration directive. Valid modes are:
    * ASYNC: Asynchronously flush the libraries.
    * SYNC: Synchronously flush the libraries.
DUMP
    Return a serialized payload representing the current libraries, can be restored using FUNCTION RESTORE command
RESTORE <PAYLOAD> [FLUSH|APPEND|REPLACE]
    Restore the libraries represented by the given payload, it is possible to give a restore policy to
    control how to handle existing libraries (default APPEND):
    * FLUSH: delete all existing libraries.
    * APPEND: appends the restored libraries to the existing libraries. On collision, abort.
    * REPLACE: appends the restored libraries to the existing libraries, On collision, replace the old
      libraries with the new libraries (notice that even on this option there is a chance of failure
      in case of functions name collision with another library).
HELP
    Prints this help.`
