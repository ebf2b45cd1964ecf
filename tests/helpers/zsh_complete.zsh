# Drives a real interactive zsh (zsh/zpty) with `fuel completion zsh` loaded through compinit: each
# LINE argument is typed followed by TAB, and the edit buffer that completion left is appended to
# OUT, one line each. Usage: zsh -f zsh_complete.zsh OUT LINE...
zmodload zsh/zpty || exit 1
out=$1
shift
: >| $out
zpty -b completion zsh -f -i
zpty -w completion 'PS1="> "; autoload -Uz compinit; compinit -u -D; source <(fuel completion zsh)'
zpty -w completion "dump() { print -r -- \"\$BUFFER\" >> ${(q)out}; BUFFER=; }; zle -N dump; bindkey '^X' dump"
count=0
for line in "$@"; do
    zpty -w -n completion "$line"$'\t'
    sleep 0.2
    zpty -w -n completion $'\C-x'
    (( count++ ))
    # Wait (up to 10 s) for the buffer to be written: the machine may be loaded.
    for attempt in {1..100}; do
        (( $(wc -l < $out) >= count )) && break
        sleep 0.1
    done
done
zpty -w completion 'exit'
zpty -d completion
