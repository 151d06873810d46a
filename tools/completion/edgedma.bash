# SPDX-License-Identifier: GPL-2.0
#
# bash completion for edgedma: subcommands, their options, files for
# recordings and reports, device names (as the kernel names them, from
# /sys/bus/{pci,platform}/devices) and driver names. Installed as
# share/bash-completion/completions/edgedma; needs nothing but bash.
# tests/package/run checks it against the tool's --help.

_edgedma_options() {
	case $1 in
	'') echo "--help --version" ;;
	status) echo "--json --stats --help" ;;
	findings) echo "--json --device --since --help" ;;
	watch) echo "--json --device --count --every-occurrence --timeout --since --receive --receive-buffer --help" ;;
	mappings) echo "--json --device --help" ;;
	devices) echo "--json --help" ;;
	policy) echo "--help" ;;
	"policy set") echo "--driver --addr-align --len-align --coherency --checks --enable --disable --snapshot-on --snapshot-findings --owned-hash-max --help" ;;
	"policy get") echo "--json --help" ;;
	"policy list") echo "--json --help" ;;
	"policy del") echo "--driver --help" ;;
	snapshot) echo "--help" ;;
	"snapshot take") echo "--addr --help" ;;
	"snapshot list") echo "--json --help" ;;
	"snapshot show") echo "--json --help" ;;
	"snapshot save") echo "--output --help" ;;
	"snapshot on-error") echo "--remove --help" ;;
	"snapshot hooks") echo "--json --help" ;;
	profile) echo "--help" ;;
	"profile load") echo "--device --check --help" ;;
	"profile list") echo "--json --help" ;;
	"profile show") echo "--json --help" ;;
	"profile unload") echo "--help" ;;
	record) echo "--output --duration --device --no-map-events --every-occurrence --help" ;;
	replay) echo "--json --buckets --help" ;;
	explain) echo "--json --help" ;;
	collect) echo "--keep --json --help" ;;
	report) echo "--html --trace --json --buckets --help" ;;
	esac
}

_edgedma_devices() {
	local dev
	for dev in /sys/bus/pci/devices/* /sys/bus/platform/devices/*; do
		[ -e "$dev" ] && printf '%s\n' "${dev##*/}"
	done
}

_edgedma_drivers() {
	local drv
	for drv in /sys/bus/pci/drivers/* /sys/bus/platform/drivers/*; do
		[ -e "$drv" ] && printf '%s\n' "${drv##*/}"
	done
}

# Words that are files: filenames are quoted and get a slash when they are
# folders (compopt works only while bash is completing).
_edgedma_files() {
	compopt -o filenames 2>/dev/null
	local IFS=$'\n'
	COMPREPLY+=($(compgen -f -- "$1"))
}

_edgedma() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=
	local i word command= skip=
	((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
	# --opt=value: bash splits the word at '=' (COMP_WORDBREAKS).
	if [[ $cur == = ]]; then
		prev=${COMP_WORDS[COMP_CWORD - 1]}
		cur=
	elif [[ $prev == = ]] && ((COMP_CWORD > 1)); then
		prev=${COMP_WORDS[COMP_CWORD - 2]}
	fi
	COMPREPLY=()

	# The subcommand (and policy's, snapshot's and profile's own) so far; skip option
	# values.
	for ((i = 1; i < COMP_CWORD; i++)); do
		word=${COMP_WORDS[i]}
		if [[ -n $skip ]]; then
			skip=
			continue
		fi
		case $word in
		--device | --driver | --since | --count | --timeout | --receive | \
		--receive-buffer | --addr-align | --len-align | --coherency | --checks | \
		--enable | --disable | --snapshot-on | --snapshot-findings | --owned-hash-max | \
		-o | --output | \
		--duration | --html | --trace | --buckets | --addr)
			[[ ${COMP_WORDS[i + 1]} == = ]] && ((i++))
			skip=1 ;;
		-*) ;;
		=) skip=1 ;;
		*)
			if [[ -z $command ]]; then
				command=$word
			elif [[ $command == policy || $command == snapshot || $command == profile ]]; then
				command="$command $word"
			fi ;;
		esac
	done

	case $prev in
	--device)
		COMPREPLY=($(compgen -W "$(_edgedma_devices)" -- "$cur"))
		return ;;
	--driver)
		COMPREPLY=($(compgen -W "$(_edgedma_drivers)" -- "$cur"))
		return ;;
	-o | --output | --html | --trace)
		_edgedma_files "$cur"
		return ;;
	--receive)
		COMPREPLY=($(compgen -W "auto multishot batched recv" -- "$cur"))
		return ;;
	--coherency)
		COMPREPLY=($(compgen -W "auto coherent noncoherent" -- "$cur"))
		return ;;
	--checks | --enable | --disable | --snapshot-findings | --snapshot-on)
		# A comma-separated list: complete its last item.
		local kinds="addr-misaligned len-misaligned cacheline-shared stack-buffer
			vmalloc-buffer rodata-buffer seg-boundary seg-too-long mask-exceeded
			bounced unmap-unknown double-unmap unmap-mismatch sync-unknown
			sync-mismatch leak cacheline-neighbour-written free-irqs-off
			cpu-write-while-device-owned"
		[[ $prev == --snapshot-on ]] &&
			kinds="manual iommu-fault controller-error oops panic finding"
		[[ $prev == --checks || $prev == --snapshot-* ]] && kinds="all none $kinds"
		local head= last=$cur
		if [[ $cur == *,* ]]; then
			head=${cur%,*},
			last=${cur##*,}
		fi
		COMPREPLY=($(compgen -P "$head" -W "$kinds" -- "$last"))
		compopt -o nospace 2>/dev/null
		return ;;
	--since | --count | --timeout | --receive-buffer | --addr-align | --len-align | \
	--duration | --buckets | --addr)
		return ;;
	esac

	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_edgedma_options "$command")" -- "$cur"))
		return
	fi
	case $command in
	'')
		COMPREPLY=($(compgen -W "status findings watch mappings devices policy snapshot profile
			record replay explain report collect" -- "$cur")) ;;
	policy)
		COMPREPLY=($(compgen -W "set get list del" -- "$cur")) ;;
	snapshot)
		COMPREPLY=($(compgen -W "take list show save on-error hooks" -- "$cur")) ;;
	profile)
		COMPREPLY=($(compgen -W "load list show unload" -- "$cur")) ;;
	"profile load")
		_edgedma_files "$cur" ;;
	"profile show" | "profile unload")
		# The loaded profiles' names, when the module lets this user list them.
		COMPREPLY=($(compgen -W "$(edgedma profile list --json 2>/dev/null |
			sed -n 's/^{"name":"\([^"]*\)".*/\1/p')" -- "$cur")) ;;
	"policy set" | "policy get" | "policy del" | "snapshot take")
		COMPREPLY=($(compgen -W "$(_edgedma_devices)" -- "$cur")) ;;
	"snapshot on-error")
		# The function first (a kernel symbol: not completed), then its device.
		local words=0
		for ((i = 1; i < COMP_CWORD; i++)); do
			[[ ${COMP_WORDS[i]} != -* ]] && ((words++))
		done
		((words >= 3)) && COMPREPLY=($(compgen -W "$(_edgedma_devices)" -- "$cur")) ;;
	replay | explain)
		_edgedma_files "$cur" ;;
	collect)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -d -- "$cur")) ;;
	report)
		COMPREPLY=($(compgen -W "live" -- "$cur"))
		_edgedma_files "$cur" ;;
	esac
}

complete -F _edgedma edgedma
