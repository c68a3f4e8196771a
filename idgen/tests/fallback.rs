//! The fallback fork model, forced with IDGEN_WIPEONFORK=off (what a kernel that refuses
//! `MADV_WIPEONFORK` gets): the atfork handler wipes the state of a `fork()` child, and a raw
//! `clone` child, which runs no atfork handlers, is the documented gap. One test, so the
//! variable is set before anything in this process reads it.

use idgen::{ForkModel, Mint, Pooled};

fn child_ids(raw_clone: bool, mint: &mut dyn FnMut() -> u128) -> Vec<u128> {
    use std::io::Read;
    use std::os::fd::FromRawFd;
    let mut fds = [0; 2];
    // SAFETY: the child only mints, writes to its pipe and _exits.
    let pid = unsafe {
        assert_eq!(libc::pipe(fds.as_mut_ptr()), 0);
        let pid = if raw_clone {
            libc::syscall(libc::SYS_clone, libc::SIGCHLD, 0, 0, 0, 0) as libc::pid_t
        } else {
            libc::fork()
        };
        assert!(pid >= 0);
        if pid == 0 {
            for _ in 0..64 {
                let id = mint().to_le_bytes();
                if libc::write(fds[1], id.as_ptr().cast(), 16) != 16 {
                    libc::_exit(3);
                }
            }
            libc::_exit(0);
        }
        libc::close(fds[1]);
        pid
    };
    let mut bytes = Vec::new();
    // SAFETY: the read end is ours; the File closes it.
    unsafe { std::fs::File::from_raw_fd(fds[0]) }.read_to_end(&mut bytes).unwrap();
    let mut status = 0;
    // SAFETY: waits for our own child.
    assert_eq!(unsafe { libc::waitpid(pid, &mut status, 0) }, pid);
    assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0, "child status {status}");
    bytes.chunks_exact(16).map(|c| u128::from_le_bytes(c.try_into().unwrap())).collect()
}

/// A generator under test, as a closure: the process-wide one or an owned one.
type Minter = Box<dyn FnMut() -> u128>;

#[test]
fn atfork_fallback_reseeds_forked_children_only() {
    // SAFETY: the only test in this binary, run before anything reads the environment.
    unsafe { std::env::set_var("IDGEN_WIPEONFORK", "off") };
    assert_eq!(idgen::fork_model(), ForkModel::AtFork);
    let mut owned = Pooled::new();
    let mut sources: [(&str, Minter); 2] =
        [("mint()", Box::new(|| idgen::mint().as_u128())), ("Pooled", Box::new(move || owned.mint().as_u128()))];
    for (name, mint) in &mut sources {
        mint();
        let forked = child_ids(false, mint);
        let cloned = child_ids(true, mint);
        let parent: Vec<u128> = (0..64).map(|_| mint()).collect();
        assert_eq!(forked.len(), 64);
        assert!(forked.iter().all(|id| !parent.contains(id)), "{name}: a forked child repeated its parent");
        assert_eq!(cloned, parent, "{name}: without wipe-on-fork a raw clone child repeats its parent");
    }
}
