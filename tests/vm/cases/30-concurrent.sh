#!/bin/sh
# Four processes in four sessions add the same new OpenPGP blob at once:
# one upcall serves all of them (the others wait for the answer under
# construction in the module's cache), and all get the same key.
. /pgpk/lib.sh
K=$PGPK_DATA/k
pgpk_need_module
pgpk_need_helper
pgpk_need_data k/deb1-comment.asc k/deb1.fpr
pgpk_load

sleep 0.5
up=$(count_upcalls)
i=1
while [ "$i" -le 4 ]; do
	keyctl session - sh -c "keyctl padd asymmetric '' @s \
		<'$K/deb1-comment.asc' >/tmp/conc.$i 2>&1 &&
		keyctl search @s asymmetric id:$(cat "$K/deb1.fpr") \
		>>/tmp/conc.$i 2>&1; echo \$? >>/tmp/conc.$i" >/dev/null &
	i=$((i + 1))
done
wait
i=1
while [ "$i" -le 4 ]; do
	echo "process $i: $(tr '\n' ' ' </tmp/conc.$i)"
	assert_eq 0 "$(tail -n 1 /tmp/conc.$i)" "process $i result"
	i=$((i + 1))
done
sleep 0.5
assert_eq $((up + 1)) "$(count_upcalls)" "upcalls for 4 concurrent adds"
exit 0
